/**
 * Workflows shared by the end-to-end and queue-mode tests: one create → get → update →
 * list → delete chain per action node, started by a production webhook whose answer is
 * the last node's items.
 */
import { pack, webhookStart, workflow } from '../../testbed/n8n/env';

export const salesCrud = workflow('e2eSalesCrud0001', 'E2E sales CRUD', [
	webhookStart('sales-crud'),
	pack('businessPlatformSales', 'Create', {
		resource: 'contact',
		operation: 'create',
		name: '={{ $json.body.name }}',
		type: 'person',
		additionalFields: { email: '={{ $json.body.email }}' },
	}),
	pack('businessPlatformSales', 'Get', {
		resource: 'contact',
		operation: 'get',
		contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		simplify: false,
	}),
	pack('businessPlatformSales', 'Update', {
		resource: 'contact',
		operation: 'update',
		contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		updateFields: { name: '={{ $json.name }} (updated)' },
	}),
	pack('businessPlatformSales', 'List', {
		resource: 'contact',
		operation: 'getAll',
		returnAll: true,
		filters: { email: "={{ $('Start').item.json.body.email }}" },
		simplify: false,
	}),
	pack('businessPlatformSales', 'Delete', {
		resource: 'contact',
		operation: 'delete',
		contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
	}),
]);

export const campaignsCrud = workflow('e2eCampCrud00001', 'E2E campaigns CRUD', [
	webhookStart('campaigns-crud'),
	pack('businessPlatformCampaigns', 'Create', {
		resource: 'category',
		operation: 'create',
		name: '={{ $json.body.name }}',
		additionalFields: { description: 'from n8n' },
	}),
	pack('businessPlatformCampaigns', 'Get', {
		resource: 'category',
		operation: 'get',
		categoryId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
	}),
	pack('businessPlatformCampaigns', 'Update', {
		resource: 'category',
		operation: 'update',
		categoryId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		updateFields: { name: '={{ $json.name }} (updated)' },
	}),
	pack('businessPlatformCampaigns', 'List', {
		resource: 'category',
		operation: 'getAll',
		returnAll: true,
		filters: { name: "={{ $('Start').item.json.body.name }} (updated)" },
	}),
	pack('businessPlatformCampaigns', 'Delete', {
		resource: 'category',
		operation: 'delete',
		categoryId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
	}),
]);

export const peopleCrud = workflow('e2ePeopleCrud001', 'E2E people CRUD', [
	webhookStart('people-crud'),
	pack('businessPlatformPeople', 'Create', {
		resource: 'user',
		operation: 'create',
		firstName: '={{ $json.body.firstName }}',
		lastName: 'E2e',
		emailId: '={{ $json.body.email }}',
	}),
	pack('businessPlatformPeople', 'Update', {
		resource: 'user',
		operation: 'updateFields',
		userId: { __rl: true, mode: 'id', value: '={{ $json.userId }}' },
		identity: { department: 'QA' },
	}),
	pack('businessPlatformPeople', 'Search', {
		resource: 'user',
		operation: 'search',
		returnAll: true,
		conditions: {
			condition: [{ colId: 'emailId', opr: 'eq', value: "={{ $('Start').item.json.body.email }}" }],
		},
	}),
	pack('businessPlatformPeople', 'Delete', {
		resource: 'user',
		operation: 'delete',
		userIds: '={{ $json.userId }}',
	}),
]);
