/** Activities (calls and meetings) — /v1/crm/activities. */

import type { Resource } from '../../../shared/engine/model';
import { searchActivities } from '../../methods/activities';
import { getOwners, searchContacts } from '../../methods/contacts';
import { searchDeals } from '../../methods/deals';
import { bulkDeleteActivity } from './bulkDelete';
import { bulkUpdateActivity } from './bulkUpdate';
import { createActivity } from './create';
import { deleteActivity } from './delete';
import { getActivity } from './get';
import { getAllActivity } from './getAll';
import { updateActivity } from './update';

export const activityResource: Resource = {
	value: 'activity',
	name: 'Activity',
	description: 'Calls and meetings',
	operations: [
		createActivity,
		getActivity,
		getAllActivity,
		updateActivity,
		deleteActivity,
		bulkUpdateActivity,
		bulkDeleteActivity,
	],
	methods: {
		listSearch: { searchActivities, searchContacts, searchDeals },
		loadOptions: { getOwners },
	},
};
