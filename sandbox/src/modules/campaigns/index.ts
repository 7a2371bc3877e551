/** Campaign assets: forms, categories and email templates — /v1/crm/campaign/… */
import { addRoutes, type Module, type RouteDef } from '../../module';
import { deleteCategory, getCategoryRoute, listCategories, patchCategory, postCategory, seedCategories } from './categories';
import { deleteForm, getFormRoute, getFormTemplate, listForms, seedForms } from './forms';
import { listTemplates, postTemplate, seedTemplates } from './templates';

const ASSETS = '/v1/crm/campaign/assets';
const CATEGORY = '/v1/crm/campaign/category';
const TEMPLATES = '/v1/crm/campaign/email-templates';

const ROUTES: RouteDef[] = [
	['GET', `${ASSETS}/form-templates/:id`, getFormTemplate],
	['GET', `${ASSETS}/forms`, listForms],
	['GET', `${ASSETS}/forms/:id`, getFormRoute],
	['DELETE', `${ASSETS}/forms/:id`, deleteForm],
	['GET', CATEGORY, listCategories],
	['POST', CATEGORY, postCategory],
	['GET', `${CATEGORY}/:id`, getCategoryRoute],
	['PATCH', `${CATEGORY}/:id`, patchCategory],
	['DELETE', `${CATEGORY}/:id`, deleteCategory],
	['GET', TEMPLATES, listTemplates],
	['POST', TEMPLATES, postTemplate],
];

export const campaigns: Module = {
	name: 'campaigns',
	seed(env, tenant, s) {
		const suffix = s.index === 0 ? '' : ' (Globex)';
		seedForms(env, tenant, s.rows, suffix);
		seedCategories(env, tenant, s.rows, suffix);
		seedTemplates(env, tenant, s.rows, s.rnd, suffix);
	},
	routes: (router, env) => addRoutes(router, env, ROUTES),
};
