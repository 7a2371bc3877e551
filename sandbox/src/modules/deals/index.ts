/**
 * Deals, pipelines and stages — /v1/crm/deals…
 * Each file's header lists the choices made where the spec says "not shown".
 */
import { addRoutes, type Module, type RouteDef } from '../../module';
import { deleteDeal, deleteDeals, getDealRoute, listDeals, patchDeals, postDeal, putDeal } from './deals';
import { deletePipeline, getPipelineRoute, listPipelines, postPipeline, putPipeline } from './pipelines';
import { generateDeals, seedDeals } from './seed';
import { deleteStage } from './stages';

const DEALS = '/v1/crm/deals';
const PIPELINES = '/v1/crm/deals/pipelines';

const ROUTES: RouteDef[] = [
	['GET', PIPELINES, listPipelines],
	['POST', PIPELINES, postPipeline],
	['GET', `${PIPELINES}/:id`, getPipelineRoute],
	['PUT', `${PIPELINES}/:id`, putPipeline],
	['DELETE', `${PIPELINES}/:id`, deletePipeline],
	['DELETE', `${PIPELINES}/stages/:id`, deleteStage],
	['GET', DEALS, listDeals],
	['POST', DEALS, postDeal],
	['PATCH', DEALS, patchDeals],
	['DELETE', DEALS, deleteDeals],
	['GET', `${DEALS}/:id`, getDealRoute],
	['PUT', `${DEALS}/:id`, putDeal],
	['DELETE', `${DEALS}/:id`, deleteDeal],
];

export const deals: Module = {
	name: 'deals',
	seed: seedDeals,
	bulk: {
		deals: (env, tenant, count) => generateDeals(env, tenant, count),
	},
	routes: (router, env) => addRoutes(router, env, ROUTES),
};
