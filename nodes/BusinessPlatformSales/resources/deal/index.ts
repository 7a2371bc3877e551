/** Deals — /v1/crm/deals. */

import type { Resource } from '../../../shared/engine/model';
import { getOwners, searchContacts } from '../../methods/contacts';
import {
	getPipelines,
	getPipelinesOrFirst,
	getPipelineStages,
	getPipelineStagesOrFirst,
	searchDeals,
	searchPipelines,
	searchPipelineStages,
} from '../../methods/deals';
import { bulkDeleteDeal } from './bulkDelete';
import { bulkUpdateDeal } from './bulkUpdate';
import { createDeal } from './create';
import { deleteDeal } from './delete';
import { getDeal } from './get';
import { getAllDeal } from './getAll';
import { updateDeal } from './update';

export const dealResource: Resource = {
	value: 'deal',
	name: 'Deal',
	description: 'Deals in pipelines',
	operations: [
		createDeal,
		getDeal,
		getAllDeal,
		updateDeal,
		deleteDeal,
		bulkUpdateDeal,
		bulkDeleteDeal,
	],
	methods: {
		listSearch: { searchDeals, searchContacts, searchPipelines, searchPipelineStages },
		loadOptions: {
			getOwners,
			getPipelines,
			getPipelinesOrFirst,
			getPipelineStages,
			getPipelineStagesOrFirst,
		},
	},
};
