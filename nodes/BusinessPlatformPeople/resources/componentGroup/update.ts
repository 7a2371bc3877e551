/** Component Group → Update: PUT /v1/people/tenants/component-group. Replace a component group (PUT): components, benefits and users you leave out are removed. */

import type { Operation } from '../../../shared/engine/model';
import { checkGroup, groupFields, groupId, PATH, SAVE_GROUP_WHY, saveGroup } from './common';

export const updateComponentGroup: Operation = {
	value: 'update',
	name: 'Update',
	action: 'Update a component group',
	description:
		'Replace a component group (PUT): components, benefits and users you leave out are removed',
	method: 'PUT',
	path: PATH,
	regional: true,
	fields: [groupId('id', 'body'), ...groupFields(true)],
	why: SAVE_GROUP_WHY,
	check: checkGroup,
	execute: saveGroup,
};
