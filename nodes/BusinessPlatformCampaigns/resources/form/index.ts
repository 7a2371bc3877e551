/** Campaign forms — /v1/crm/campaign/assets/forms and form-templates. */

import type { Resource } from '../../../shared/engine/model';
import { searchForms } from '../../methods/forms';
import { deleteForm } from './delete';
import { getForm } from './get';
import { getAllForm } from './getAll';
import { getMarkupForm } from './getMarkup';

export const formResource: Resource = {
	value: 'form',
	name: 'Form',
	description: 'Forms built in the campaign editor',
	operations: [getForm, getAllForm, deleteForm, getMarkupForm],
	methods: { listSearch: { searchForms } },
};
