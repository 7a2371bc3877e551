/**
 * The 78 endpoints of the spec that have a method and a path, with the success
 * status each documents. `test/sandbox/catalogue.test.ts` checks this list
 * against the spec documents (when ../shared/spec is beside the repo) and
 * against the sandbox's routes.
 */
export interface Endpoint {
	method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
	path: string;
	status: number;
	module: 'sales' | 'campaigns' | 'people' | 'webhooks';
}

const e = (module: Endpoint['module'], method: Endpoint['method'], path: string, status: number): Endpoint => ({ module, method, path, status });

export const ENDPOINTS: Endpoint[] = [
	// contacts (8) and labels (5)
	e('sales', 'GET', '/v1/crm/contacts', 200),
	e('sales', 'PATCH', '/v1/crm/contacts', 201),
	e('sales', 'POST', '/v1/crm/contacts', 200),
	e('sales', 'GET', '/v1/crm/contacts/:id', 200),
	e('sales', 'PATCH', '/v1/crm/contacts/:id', 201),
	e('sales', 'PUT', '/v1/crm/contacts/:id', 201),
	e('sales', 'DELETE', '/v1/crm/contacts/:id', 200),
	e('sales', 'POST', '/v1/crm/contacts/multiple', 200),
	e('sales', 'GET', '/v1/crm/contacts/labels', 200),
	e('sales', 'POST', '/v1/crm/contacts/labels', 201),
	e('sales', 'GET', '/v1/crm/contacts/labels/:id', 200),
	e('sales', 'PUT', '/v1/crm/contacts/labels/:id', 201),
	e('sales', 'DELETE', '/v1/crm/contacts/labels/:id', 200),
	// activities (7)
	e('sales', 'GET', '/v1/crm/activities', 200),
	e('sales', 'POST', '/v1/crm/activities', 201),
	e('sales', 'GET', '/v1/crm/activities/:id', 200),
	e('sales', 'PUT', '/v1/crm/activities/:id', 200),
	e('sales', 'DELETE', '/v1/crm/activities/:id', 204),
	e('sales', 'PATCH', '/v1/crm/activities/bulkUpdate', 200),
	e('sales', 'POST', '/v1/crm/activities/bulkDelete', 204),
	// deals (7), pipelines (5), stages (1)
	e('sales', 'GET', '/v1/crm/deals', 200),
	e('sales', 'POST', '/v1/crm/deals', 201),
	e('sales', 'PATCH', '/v1/crm/deals', 200),
	e('sales', 'DELETE', '/v1/crm/deals', 204),
	e('sales', 'GET', '/v1/crm/deals/:id', 200),
	e('sales', 'PUT', '/v1/crm/deals/:id', 200),
	e('sales', 'DELETE', '/v1/crm/deals/:id', 204),
	e('sales', 'GET', '/v1/crm/deals/pipelines', 200),
	e('sales', 'POST', '/v1/crm/deals/pipelines', 201),
	e('sales', 'GET', '/v1/crm/deals/pipelines/:id', 200),
	e('sales', 'PUT', '/v1/crm/deals/pipelines/:id', 200),
	e('sales', 'DELETE', '/v1/crm/deals/pipelines/:id', 204),
	e('sales', 'DELETE', '/v1/crm/deals/pipelines/stages/:id', 204),
	// tables (3) and records (6)
	e('sales', 'GET', '/v1/crm/core/table', 200),
	e('sales', 'GET', '/v1/crm/core/table/:tableId', 200),
	e('sales', 'GET', '/v1/crm/core/table/by-object-type', 200),
	e('sales', 'POST', '/v1/crm/core/table/:tableId/record', 201),
	e('sales', 'POST', '/v1/crm/core/table/:tableId/paged-record', 200),
	e('sales', 'GET', '/v1/crm/core/table/:tableId/record/:recordId', 200),
	e('sales', 'GET', '/v1/crm/core/table/:tableId/count', 200),
	e('sales', 'PUT', '/v1/crm/core/table/:tableId/record/:recordId', 200),
	e('sales', 'DELETE', '/v1/crm/core/table/:tableId/record/:recordId', 200),
	// campaigns (11)
	e('campaigns', 'GET', '/v1/crm/campaign/assets/form-templates/:id', 200),
	e('campaigns', 'GET', '/v1/crm/campaign/assets/forms', 200),
	e('campaigns', 'GET', '/v1/crm/campaign/assets/forms/:id', 200),
	e('campaigns', 'DELETE', '/v1/crm/campaign/assets/forms/:id', 204),
	e('campaigns', 'GET', '/v1/crm/campaign/category', 200),
	e('campaigns', 'POST', '/v1/crm/campaign/category', 201),
	e('campaigns', 'GET', '/v1/crm/campaign/category/:id', 200),
	e('campaigns', 'PATCH', '/v1/crm/campaign/category/:id', 200),
	e('campaigns', 'DELETE', '/v1/crm/campaign/category/:id', 204),
	e('campaigns', 'GET', '/v1/crm/campaign/email-templates', 200),
	// Response not shown in the spec; the sandbox answers 201 {id} like the other creates.
	e('campaigns', 'POST', '/v1/crm/campaign/email-templates', 201),
	// people: users (11)
	e('people', 'GET', '/v1/people/users', 200),
	e('people', 'POST', '/v1/people/users', 200),
	e('people', 'PUT', '/v1/people/users', 200),
	e('people', 'PATCH', '/v1/people/users', 200),
	e('people', 'POST', '/v1/people/users/delete/bulk', 200),
	e('people', 'POST', '/v1/people/users/filtered-users', 200),
	e('people', 'GET', '/v1/people/users/approvers/list', 200),
	e('people', 'GET', '/v1/people/users/designations', 200),
	e('people', 'PUT', '/v1/people/users/beneficiary-status', 200),
	e('people', 'POST', '/v1/people/users/sync-beneficiaries', 200),
	e('people', 'GET', '/v1/people/users/in/tax-declaration-info/list', 200),
	// payruns (6) and paystubs (1)
	e('people', 'GET', '/v1/people-pay-run/payruns', 200),
	e('people', 'POST', '/v1/people-pay-run/payruns', 200),
	e('people', 'DELETE', '/v1/people-pay-run/payruns', 200),
	e('people', 'GET', '/v1/people-pay-run/payruns/year/:year', 200),
	e('people', 'POST', '/v1/people-pay-run/payruns/sync-je', 200),
	e('people', 'POST', '/v1/people-pay-run/payruns/revert-je', 200),
	e('people', 'GET', '/v1/people-pay-run/paystubs/employee/:employeeId', 200),
	// component groups (4)
	e('people', 'GET', '/v1/people/tenants/component-group', 200),
	e('people', 'POST', '/v1/people/tenants/component-group', 200),
	e('people', 'PUT', '/v1/people/tenants/component-group', 200),
	e('people', 'POST', '/v1/people/tenants/component-group/delete', 200),
	// webhooks (3)
	e('webhooks', 'POST', '/v1/webhooks/register', 200),
	e('webhooks', 'DELETE', '/v1/webhooks/delete/:id', 200),
	e('webhooks', 'GET', '/v1/webhooks', 200),
];

/** `/v1/crm/contacts/{id}` and `/v1/crm/contacts/:id` compare equal. */
export const shape = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z]+/g, ':p');
