/**
 * Component groups: pay components (earnings, deductions) and benefits applied
 * to users — /v1/people/tenants/component-group (regional). The spec gives no
 * path for listing groups, so there is no Get Many and no group picker.
 */

import type { Resource } from '../../../shared/engine/model';
import { getPeopleUsers } from '../../methods/users';
import { createComponentGroup } from './create';
import { deleteComponentGroup } from './delete';
import { getComponentGroup } from './get';
import { updateComponentGroup } from './update';

export const componentGroupResource: Resource = {
	value: 'componentGroup',
	name: 'Component Group',
	description: 'Pay components and benefits applied to users',
	operations: [createComponentGroup, getComponentGroup, updateComponentGroup, deleteComponentGroup],
	methods: { loadOptions: { getPeopleUsers } },
};
