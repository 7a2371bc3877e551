/** Component Group → Create: POST /v1/people/tenants/component-group. Create a group of pay components and benefits. */

import type { Operation } from '../../../shared/engine/model';
import { checkGroup, groupFields, PATH, SAVE_GROUP_WHY, saveGroup } from './common';

export const createComponentGroup: Operation = {
	value: 'create',
	name: 'Create',
	action: 'Create a component group',
	description: 'Create a group of pay components and benefits',
	method: 'POST',
	path: PATH,
	regional: true,
	fields: groupFields(false),
	why: SAVE_GROUP_WHY,
	check: checkGroup,
	execute: saveGroup,
};
