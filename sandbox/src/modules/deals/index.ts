/**
 * Deals, pipelines and stages — /v1/crm/deals…
 * Each file's header lists the choices made where the spec says "not shown".
 */
import { stampBulk, type Module } from '../../module';
import {
	deleteDeal,
	deleteDeals,
	getDealRoute,
	listDeals,
	patchDeals,
	postDeal,
	putDeal,
} from './deals';
import {
	deletePipeline,
	getPipelineRoute,
	listPipelines,
	postPipeline,
	putPipeline,
} from './pipelines';
import { generateDeals, seedDeals } from './seed';
import { deleteStage } from './stages';

const DEALS = '/v1/crm/deals';
const PIPELINES = '/v1/crm/deals/pipelines';

export const deals: Module = {
	name: 'deals',
	seed: seedDeals,
	bulk: {
		deals: (env, tenant, count, options) => {
			const added = generateDeals(env, tenant, count);
			stampBulk(env, tenant.deals.values(), added, options);
			tenant.deals.touch();
			return added;
		},
	},
	paths: {
		[PIPELINES]: { GET: listPipelines, POST: postPipeline },
		[`${PIPELINES}/:id`]: { GET: getPipelineRoute, PUT: putPipeline, DELETE: deletePipeline },
		[`${PIPELINES}/stages/:id`]: { DELETE: deleteStage },
		[DEALS]: { GET: listDeals, POST: postDeal, PATCH: patchDeals, DELETE: deleteDeals },
		[`${DEALS}/:id`]: { GET: getDealRoute, PUT: putDeal, DELETE: deleteDeal },
	},
};
