/** Contact labels — /v1/crm/contacts/labels. */

import type { Resource } from '../../../shared/engine/model';
import { getContactLabels, searchContactLabels } from '../../methods/contacts';
import { createContactLabel } from './create';
import { deleteContactLabel } from './delete';
import { getContactLabel } from './get';
import { getAllContactLabel } from './getAll';
import { updateContactLabel } from './update';

export const contactLabelResource: Resource = {
	value: 'contactLabel',
	name: 'Contact Label',
	description: 'Labels that group contacts',
	operations: [
		createContactLabel,
		getContactLabel,
		getAllContactLabel,
		updateContactLabel,
		deleteContactLabel,
	],
	methods: { listSearch: { searchContactLabels }, loadOptions: { getContactLabels } },
};
