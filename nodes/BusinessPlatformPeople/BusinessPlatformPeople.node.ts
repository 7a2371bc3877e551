import { actionNode } from '../shared/engine/action-node';
import { PEOPLE_RESOURCES } from './resources';

export class BusinessPlatformPeople extends actionNode({
	displayName: 'Business Platform People',
	name: 'businessPlatformPeople',
	version: 1,
	description:
		'Work with users, payruns, paystubs and component groups of the Business Platform people and payroll module',
	resources: PEOPLE_RESOURCES,
}) {}
