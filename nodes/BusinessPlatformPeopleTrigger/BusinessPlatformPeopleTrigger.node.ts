/**
 * The People Trigger: polls the people and payroll lists, which the platform sends no webhook
 * for. Its type name is the People node's plus "Trigger", so n8n's nodes panel lists its events
 * with the People node.
 */
import { searchPeopleUsers } from '../BusinessPlatformPeople/methods/users';
import { pollingNode } from '../shared/polling/node';
import { PEOPLE_EVENTS } from './events';

export class BusinessPlatformPeopleTrigger extends pollingNode({
	displayName: 'Business Platform People Trigger',
	name: 'businessPlatformPeopleTrigger',
	description:
		'Starts the workflow when a payrun, paystub or user changes in Business Platform (checked at the poll times you set)',
	events: PEOPLE_EVENTS,
	methods: { listSearch: { searchPeopleUsers } },
}) {}
