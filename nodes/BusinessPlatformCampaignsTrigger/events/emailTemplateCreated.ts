/** On Email Template Created: an email template with a created_at the trigger has not seen (GET /v1/crm/campaign/email-templates, every page). */
import { changeTime } from '../../shared/polling/cursor';
import type { PollEvent } from '../../shared/polling/model';
import { categoryField, templateList } from './common';

export const emailTemplateCreated: PollEvent = {
	value: 'emailTemplateCreated',
	name: 'Email Template Created',
	description: 'An email template is created',
	noun: 'email template',
	fields: [categoryField],
	list: templateList,
	time: (t) => changeTime(t.created_at),
	key: (t) => String(t.id ?? ''),
	is: (t) => t.is_deleted !== true,
};
