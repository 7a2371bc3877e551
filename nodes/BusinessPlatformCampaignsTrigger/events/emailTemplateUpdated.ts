/**
 * On Email Template Updated: an email template whose updated_at is later than its created_at and
 * than what the trigger has seen (GET /v1/crm/campaign/email-templates, every page).
 */
import { changeTime } from '../../shared/polling/cursor';
import type { PollEvent } from '../../shared/polling/model';
import { categoryField, templateList } from './common';

export const emailTemplateUpdated: PollEvent = {
	value: 'emailTemplateUpdated',
	name: 'Email Template Updated',
	description: 'An email template changes',
	noun: 'updated email template',
	fields: [categoryField],
	list: templateList,
	time: (t) => changeTime(t.updated_at),
	key: (t) => `${String(t.id ?? '')}@${String(t.updated_at)}`,
	is: (t) => (changeTime(t.updated_at) ?? 0) > (changeTime(t.created_at) ?? 0),
};
