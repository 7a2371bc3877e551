/**
 * Campaign email templates — /v1/crm/campaign/email-templates.
 *
 * `template_json` travels as URL-encoded JSON text. Users give and get JSON: the
 * node encodes it with encodeURIComponent(JSON.stringify(…)) on the way out and
 * decodes it (decodeURIComponent, then JSON.parse) on the way back.
 */

import type { Resource } from '../../../shared/engine/model';
import { getCategories, searchCategories } from '../../methods/categories';
import { createEmailTemplate } from './create';
import { getAllEmailTemplate } from './getAll';

export const emailTemplateResource: Resource = {
	value: 'emailTemplate',
	name: 'Email Template',
	description: 'Designs of campaign emails',
	operations: [createEmailTemplate, getAllEmailTemplate],
	methods: { listSearch: { searchCategories }, loadOptions: { getCategories } },
};
