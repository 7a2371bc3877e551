/** Campaign assets: forms, categories and email templates — /v1/crm/campaign/… */
import type { Module } from '../../module';
import {
	deleteCategory,
	getCategoryRoute,
	listCategories,
	patchCategory,
	postCategory,
	seedCategories,
} from './categories';
import { deleteForm, getFormRoute, getFormTemplate, listForms, seedForms } from './forms';
import { listTemplates, postTemplate, seedTemplates } from './templates';

const ASSETS = '/v1/crm/campaign/assets';
const CATEGORY = '/v1/crm/campaign/category';

export const campaigns: Module = {
	name: 'campaigns',
	seed(env, tenant, s) {
		const suffix = s.index === 0 ? '' : ' (Globex)';
		seedForms(env, tenant, s.rows, suffix);
		seedCategories(env, tenant, s.rows, suffix);
		seedTemplates(env, tenant, s.rows, s.rnd, suffix);
	},
	paths: {
		[`${ASSETS}/form-templates/:id`]: { GET: getFormTemplate },
		[`${ASSETS}/forms`]: { GET: listForms },
		[`${ASSETS}/forms/:id`]: { GET: getFormRoute, DELETE: deleteForm },
		[CATEGORY]: { GET: listCategories, POST: postCategory },
		[`${CATEGORY}/:id`]: { GET: getCategoryRoute, PATCH: patchCategory, DELETE: deleteCategory },
		'/v1/crm/campaign/email-templates': { GET: listTemplates, POST: postTemplate },
	},
};
