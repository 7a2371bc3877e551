/** Contacts: persons and organizations — /v1/crm/contacts. */

import type { Resource } from '../../../shared/engine/model';
import { getContactLabels, getOwners, searchContacts } from '../../methods/contacts';
import { bulkUpdateContact } from './bulkUpdate';
import { createContact } from './create';
import { deleteContact } from './delete';
import { getContact } from './get';
import { getAllContact } from './getAll';
import { getManyContact } from './getManyByIds';
import { replaceContact } from './replace';
import { updateContact } from './update';
import { upsertContact } from './upsert';

export const contactResource: Resource = {
	value: 'contact',
	name: 'Contact',
	description: 'Persons and organizations',
	operations: [
		createContact,
		upsertContact,
		getContact,
		getAllContact,
		getManyContact,
		updateContact,
		replaceContact,
		deleteContact,
		bulkUpdateContact,
	],
	methods: { listSearch: { searchContacts }, loadOptions: { getContactLabels, getOwners } },
};
