/**
 * What the Campaigns Trigger's events share: the email template list
 * (GET /v1/crm/campaign/email-templates) with its Category filter. The list takes no sort order
 * and no date, so every poll reads every page of it.
 */
import type { INodeProperties } from 'n8n-workflow';

import { locator } from '../../shared/engine/fields';
import type { ParamReader, PollList } from '../../shared/polling/model';

export const categoryField: INodeProperties = locator({
	name: 'categoryId',
	displayName: 'Category',
	search: 'searchCategories',
	required: false,
	description:
		'Only email templates of this category (the platform filters them). Empty: every category.',
});

export function templateList(param: ParamReader): PollList {
	const category = String(param('categoryId', '') ?? '').trim();
	const categoryId = /^\d+$/.test(category) ? Number(category) : undefined;
	return {
		request: {
			method: 'GET',
			path: '/v1/crm/campaign/email-templates',
			qs: categoryId === undefined ? {} : { category_id: categoryId },
		},
		style: 'pageEnvelope',
		newestFirst: false,
	};
}
