/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * One proof per catalogue entry: a well-formed request, built from the seeded
 * state (what a destructive call needs is created first, so no test depends on
 * another), answers the endpoint's documented success status with the documented
 * envelope, reaches the route the catalogue names, and leaves the documented
 * outcome in the sandbox state.
 *
 * A catalogue entry without a sample here fails the first `it.each`, so a new
 * endpoint cannot be added without its proof.
 */
import type { Doc } from '../../sandbox/src/state';
import { call, useSandbox, type CallOptions, type CallResult } from '../helpers/sandbox';
import { ENDPOINTS, shape } from './catalogue';

const ctx = useSandbox();
const t1 = () => ctx.sb.store.tenant(1);

interface Sample {
	/** Values of the catalogue path's `:name` parameters. */
	params?: Record<string, string | number>;
	query?: CallOptions['query'];
	body?: unknown;
	/** The documented envelope, and the outcome in the sandbox state. */
	check(res: CallResult): void;
}
type Build = () => Sample | Promise<Sample>;

// ---------- helpers ----------

let counter = 0;
const uniq = (prefix: string) => `${prefix} ${++counter}`;
const uniqEmail = () => `catalogue.${++counter}@example.test`;

function fill(path: string, params: Sample['params'] = {}): string {
	return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
		if (params[name] === undefined)
			throw new Error(`sample for ${path} gives no value for :${name}`);
		return encodeURIComponent(String(params[name]));
	});
}

/** Exactly these keys (order ignored). */
const expectKeys = (obj: unknown, keys: string[]) =>
	expect(Object.keys(obj as object).sort()).toEqual([...keys].sort());
/** At least these keys. */
const expectHasKeys = (obj: unknown, keys: string[]) =>
	expect(Object.keys(obj as object)).toEqual(expect.arrayContaining(keys));
const expectIntegers = (obj: any, keys: string[]) => {
	for (const k of keys) expect([k, Number.isInteger(obj[k])]).toEqual([k, true]);
};
const expectJson = (res: CallResult) =>
	expect(String(res.headers['content-type'])).toContain('application/json');
const expectEmpty = (res: CallResult) => expect(res.text).toBe('');

/** A setup call that must succeed; answers the parsed body. */
async function setup(method: string, path: string, body?: unknown): Promise<any> {
	const res = await call(ctx.sb, method, path, { body });
	if (res.status < 200 || res.status > 299)
		throw new Error(`setup ${method} ${path} answered ${res.status}: ${res.text.slice(0, 500)}`);
	return res.body;
}

// seeded state
const crmUser = (i = 0) => t1().crmUsers[i % t1().crmUsers.length].id;
const anyLabel = () => t1().labels.values()[0];
const persons = () =>
	t1()
		.contacts.values()
		.filter((c) => c.type === 'person');
const liveActivity = () =>
	t1()
		.activities.values()
		.find((a) => !a.is_deleted)!;
const pipeline = () => t1().pipelines.values()[0];
const openStage = (p: Doc) => (p.stages as Doc[]).find((s) => s.won_lost_status === 'open')!;
const table = (objectType: string): any =>
	t1()
		.tables.values()
		.find((t) => t.objectType === objectType);
const recordsOf = (tab: any) => t1().records.get(tab._id as string)!;
const columnId = (tab: any, pred: (c: any) => boolean): string => tab.columnsMetaData.find(pred).id;
const nameCol = (tab: any) => columnId(tab, (c) => c.columnCode === 'NAME');
const peopleUser = (pred: (u: Doc) => boolean = () => true) =>
	t1()
		.peopleUsers.values()
		.find((u) => u.status === 'active' && pred(u))!;

// creators (through the API, so created rows are exactly what the platform would hold)
const newContact = async (extra: Doc = {}) =>
	(
		await setup('POST', '/v1/crm/contacts', {
			name: uniq('Catalogue contact'),
			type: 'person',
			email: uniqEmail(),
			...extra,
		})
	).id as number;
const newLabel = async () =>
	(
		await setup('POST', '/v1/crm/contacts/labels', {
			name: uniq('Catalogue label'),
			color: '#123456',
			icon: 'tag',
		})
	).id as number;
const ACTIVITY_START = '2026-12-01T09:00:00Z';
const newActivity = async () =>
	(
		await setup('POST', '/v1/crm/activities', {
			name: uniq('Catalogue call'),
			activity_type: 'call',
			start: ACTIVITY_START,
			end: '2026-12-01T09:30:00Z',
			notes: Buffer.from('Call notes').toString('base64'),
		})
	).id as number;
const newDeal = async () =>
	(
		await setup('POST', '/v1/crm/deals', {
			name: uniq('Catalogue deal'),
			amount: 1000,
			pipeline_id: pipeline().id,
			stage_id: openStage(pipeline()).id,
		})
	).id as number;
const STAGE_SAMPLE = {
	order: 1,
	deal_probability: 10,
	rotting_days: 7,
	help_text: 'First call',
	system_generated: false,
	won_lost_status: 'open',
};
const newPipeline = async (stageNames = ['Discovery']) =>
	(
		await setup('POST', '/v1/crm/deals/pipelines', {
			name: uniq('Catalogue pipeline'),
			stages: stageNames.map((name, i) => ({ ...STAGE_SAMPLE, name, order: i + 1 })),
		})
	).Id as number;
const newCategory = async () =>
	(
		await setup('POST', '/v1/crm/campaign/category', {
			name: uniq('Catalogue category'),
			description: 'For the catalogue test',
			category_type: 'CAMPAIGN',
			is_published: false,
		})
	).id as number;
const newRecord = async (tab: any) =>
	(
		await setup('POST', `/v1/crm/core/table/${tab._id as string}/record`, {
			cells: { [nameCol(tab)]: uniq('Catalogue record') },
		})
	).id as string;
const newPeopleUser = async (extra: Doc = {}) =>
	(
		await setup('POST', '/v1/people/users', {
			firstName: 'Cata',
			lastName: uniq('Logue'),
			emailId: uniqEmail(),
			...extra,
		})
	).user.userId as string;
const newGroup = async () =>
	(
		await setup('POST', '/v1/people/tenants/component-group', {
			name: uniq('Catalogue group'),
			applyToAll: false,
			users: [],
		})
	).id as string;
const payrunBody = () => ({
	payPeriod: 'monthly',
	paySchedule: { id: 'sched-catalogue', name: 'Catalogue schedule' },
	workPeriod: { from: '08/01/2026', to: '08/31/2026' },
	payDate: '08/31/2026',
	workWeek: [1, 2, 3, 4, 5],
	isForAllUsers: false,
	employees: t1()
		.peopleUsers.values()
		.filter((u) => u.type === 'EMPLOYEE')
		.slice(0, 2)
		.map((u) => u.userId as string),
});
const newPayrun = async () =>
	(await setup('POST', '/v1/people-pay-run/payruns', payrunBody()))._id as string;
const hookBody = () => ({
	clientId: ctx.sb.config.clientId,
	clientSecret: ctx.sb.config.clientSecret,
	accessToken: ctx.sb.demo.accessToken,
	refreshToken: ctx.sb.demo.refreshToken,
	// An accounting event: nothing in this file emits it, so no delivery is attempted.
	eventType: 'STOCK_IN',
	webhookUrl: 'http://127.0.0.1:9/catalogue-hook',
});
const newHook = async () =>
	(await setup('POST', '/v1/webhooks/register', hookBody())).hookId as number;

/** A call on the `:id` of a stored document (the seeded state). */
const onStored =
	(doc: () => Doc, sample: (stored: Doc) => Omit<Sample, 'params'>): Build =>
	() => {
		const stored = doc();
		return { params: { id: stored.id as number }, ...sample(stored) };
	};

/** A call on the `:id` of a document created for it, so that no test depends on another. */
const onCreated =
	(create: () => Promise<number>, sample: (id: number) => Omit<Sample, 'params'>): Build =>
	async () => {
		const id = await create();
		return { params: { id }, ...sample(id) };
	};

// ---------- documented shapes ----------

const CONTACT_READ = [
	'id',
	'name',
	'type',
	'email',
	'label',
	'persons',
	'organization',
	'tenant_id',
	'created_at',
	'updated_at',
	'created_by',
	'updated_by',
	'owner_details',
	'deal_details',
	'sub_owner_details',
	'c_field',
	'view_only',
];
const LABEL = ['id', 'name', 'color', 'icon', 'owner_id', 'tenant_id'];
const ACTIVITY = [
	'id',
	'name',
	'activity_type',
	'duration',
	'notes',
	'visibility_type',
	'is_availability',
	'is_send_invitation',
	'is_send_contacts_invitation',
	'assigned_to',
	'assignee_ids',
	'assignee_details',
	'contact_ids',
	'contact_details',
	'organization_ids',
	'organization_details',
	'linked_to',
	'deal_details',
	'owner_id',
	'owner_details',
	'tenant_id',
	'is_status',
	'created_at',
	'updated_at',
	'created_by',
	'updated_by',
	'is_deleted',
	'EmailSent',
	'consumer_id',
	'scheduled_status',
	'batch_id',
	'cron_status',
	'notification_error',
	'source',
	'source_id',
	'user_timezone',
	'start',
	'end',
];
const PAGE_ENVELOPE = [
	'data',
	'page',
	'number_of_elements',
	'size_per_page',
	'total_pages',
	'number_of_records',
];
const DEAL_RESPONSE = [
	'activity_id',
	'amount',
	'closing_date',
	'contact_id',
	'contact_info',
	'created_at',
	'currency_code',
	'custom_field',
	'email',
	'id',
	'is_deleted',
	'mobile',
	'name',
	'next_activity_date',
	'organization_id',
	'organization_info',
	'owner_id',
	'owner_info',
	'pipeline_id',
	'reason',
	'stage',
	'stage_id',
	'status',
	'total_activities',
];
const STAGE_RESPONSE = [
	'pipeline_id',
	'order',
	'name',
	'deal_probability',
	'rotting_days',
	'help_text',
	'system_generated',
	'won_lost_status',
];
const PIPELINE = ['id', 'name', 'created_by', 'created_at', 'updated_at', 'tenantId', 'stages'];
const STAGE_DTO = [
	'id',
	'order',
	'name',
	'deal_probability',
	'rotting_days',
	'help_text',
	'system_generated',
	'won_lost_status',
	'created_at',
	'updated_at',
	'deals',
];
const TABLE = [
	'_id',
	'name',
	'objectType',
	'databaseId',
	'databaseName',
	'columnsMetaData',
	'createdAt',
	'updatedAt',
	'createdBy',
];
const COLUMN = [
	'id',
	'name',
	'columnCode',
	'type',
	'index',
	'options',
	'required',
	'editable',
	'hidden',
	'systemField',
	'uiVisible',
	'width',
	'datasource',
];
const RECORD_REQUIRED = ['_id', 'cells', 'createdBy'];
const RECORD_ALLOWED = ['_id', 'cells', 'permissions', 'createdAt', 'updatedAt', 'createdBy'];
const FORM = ['id', 'name', 'raw', 'template'];
const CATEGORY = [
	'id',
	'name',
	'description',
	'category_type',
	'color',
	'is_published',
	'owner_id',
];
const EMAIL_TEMPLATE = [
	'id',
	'name',
	'image',
	'category',
	'template_json',
	'owner_id',
	'is_deleted',
	'tenant_id',
	'created_by',
	'created_at',
	'updated_by',
	'updated_at',
];
const FILTER_CONFIG = ['page', 'numberOfElements', 'sizePerPage', 'totalPage', 'numberOfRecords'];
const GET_USERS = ['status', 'users', 'filterConfig', 'beneficiariesToAdd'];
const GET_USER = ['status', 'user', 'errors', 'httpStatusCode', 'error'];
const DELETE_RESPONSE = ['status', 'message', 'errCode'];
const COMPONENT_GROUP = [
	'id',
	'name',
	'hasFixedComponents',
	'fixedComponents',
	'hasVarComponents',
	'variableComponents',
	'hasBenefits',
	'benefits',
	'applyToAll',
	'users',
	'deleted',
	'error',
];
const PAYRUN = [
	'_id',
	'payrunType',
	'paySchedule',
	'payPeriod',
	'workWeek',
	'payDay',
	'firstPayDate',
	'payDate',
	'workPeriod',
	'isForAllUsers',
	'isForContractors',
	'employees',
	'totalCost',
	'totalTaxes',
	'totalEarnings',
	'totalDeductions',
	'netPay',
	'totalEmployerTaxes',
	'totalEmployerCost',
	'totalEmployeeCost',
	'totalDirectDepositNetPay',
	'totalCashNetPay',
	'totalCheckNetPay',
	'year',
	'month',
	'hasDirectPayment',
	'directDepositConsent',
	'isNetPayNegative',
	'isValid',
	'tenantWorkWeek',
	'holidays',
	'unpaidLeaves',
	'createdAt',
	'updatedAt',
	'processedAt',
	'paymentDoneAt',
	'revertedAt',
	'jePostedOn',
	'stage',
	'paymentVendor',
	'paymentFailureReason',
	'processed',
	'isPaymentDone',
	'isPayrunReverted',
	'jeStatus',
	'jeId',
	'jeEntryNumber',
	'jeDetails',
	'employeeCount',
	'paymentCount',
	'paymentFailureCount',
	'companyDaysBetweenPeriod',
	'location',
	'shiftsInvolved',
	'otInvolved',
	'customFields',
];
const PAYROLL = [
	'_id',
	'payrunId',
	'employeeId',
	'empId',
	'userId',
	'firstName',
	'lastName',
	'daysOff',
	'daysWorked',
	'hoursWorked',
	'compensation',
	'netPay',
	'basicPayrun',
	'netPayrun',
	'deductions',
	'earnings',
	'netTaxes',
	'components',
	'benefits',
];
const PAYSTUB = [
	'_id',
	'payrollId',
	'employeeId',
	'iamUserId',
	'firstName',
	'lastName',
	'daysOff',
	'days',
	'compensationCurrency',
	'compensationPeriod',
	'basicPay',
	'netPay',
	'basicPayrun',
	'netPayrun',
	'deductions',
	'earnings',
	'netTaxes',
	'payPeriod',
	'workPeriod',
	'components',
	'benefits',
	'compliance',
	'createdAt',
	'filepath',
	'overtime',
	'countryCode',
];
const HOOK = ['hookId', 'eventType', 'webhookUrl', 'deleted'];

/** int64 fields of the people module are written as digit strings. */
function expectFilterConfig(fc: any, numberOfRecords: number, limit: number): void {
	expectKeys(fc, FILTER_CONFIG);
	for (const k of FILTER_CONFIG) expect([k, fc[k]]).toEqual([k, expect.stringMatching(/^\d+$/)]);
	expect(fc).toEqual({
		page: '1',
		numberOfElements: String(Math.min(limit, numberOfRecords)),
		sizePerPage: String(limit),
		totalPage: String(Math.ceil(numberOfRecords / limit)),
		numberOfRecords: String(numberOfRecords),
	});
}

function expectPageEnvelope(body: any, total: number, limit: number): void {
	expectKeys(body, PAGE_ENVELOPE);
	expectIntegers(body, PAGE_ENVELOPE.slice(1));
	expect(body).toMatchObject({
		page: 1,
		number_of_elements: Math.min(limit, total),
		size_per_page: limit,
		total_pages: Math.ceil(total / limit),
		number_of_records: total,
	});
	expect(body.data).toHaveLength(Math.min(limit, total));
}

function expectRecord(rec: any): void {
	expectHasKeys(rec, RECORD_REQUIRED);
	for (const k of Object.keys(rec)) expect(RECORD_ALLOWED).toContain(k);
	expect(typeof rec._id).toBe('string');
	expect(rec.cells).toEqual(expect.any(Object));
	expect(Number.isInteger(rec.createdBy)).toBe(true);
}

function expectStageDto(stage: any): void {
	expectKeys(stage, STAGE_DTO);
	expect(Array.isArray(stage.deals)).toBe(true);
}

// ---------- one sample per catalogue entry ----------

const SAMPLES: Record<string, Build> = {
	// ----- contacts -----
	'GET /v1/crm/contacts': () => ({
		query: { page: 2, limit: 5 },
		check: (res) => {
			expectKeys(res.body, ['data', 'paginationInfo']);
			expectKeys(res.body.paginationInfo, ['page', 'totalRecords']);
			expect(res.body.paginationInfo).toEqual({ page: 2, totalRecords: t1().contacts.size });
			expect(res.body.data).toHaveLength(5);
			for (const c of res.body.data) expectHasKeys(c, CONTACT_READ);
		},
	}),
	'PATCH /v1/crm/contacts': async () => {
		const ids = [await newContact(), await newContact()];
		const label = anyLabel().id as number;
		return {
			body: { ids, label_id: label, visibility_type: 'team' },
			check: (res) => {
				expectEmpty(res);
				for (const id of ids)
					expect(t1().contacts.get(id)).toMatchObject({ label_id: label, visibility_type: 'team' });
			},
		};
	},
	'POST /v1/crm/contacts': () => {
		const name = uniq('Created contact');
		const email = uniqEmail();
		return {
			body: {
				name,
				type: 'person',
				email,
				phone: '5550100',
				label_id: anyLabel().id,
				owner_id: crmUser(),
				custom_field: [
					{ code: 'cf_tier', label: 'Tier', module: 'contact', shortName: 'tier', value: 'gold' },
				],
			},
			check: (res) => {
				expectJson(res);
				// CreateResponse {id}; the spec's sample shows the whole created contact.
				expect(Number.isInteger(res.body.id)).toBe(true);
				expectHasKeys(res.body, CONTACT_READ);
				expect(res.body).toMatchObject({ name, email, c_field: { tier: 'gold' } });
				expect(t1().contacts.get(res.body.id)).toMatchObject({
					name,
					email,
					type: 'person',
					phone: '5550100',
				});
			},
		};
	},
	'GET /v1/crm/contacts/:id': onStored(
		() => t1().contacts.values()[0],
		(c) => ({
			check: (res) => {
				expectHasKeys(res.body, CONTACT_READ);
				expect(res.body).toMatchObject({ id: c.id, name: c.name, type: c.type, tenant_id: 1 });
			},
		}),
	),
	'PATCH /v1/crm/contacts/:id': onCreated(newContact, (id) => {
		const name = t1().contacts.get(id)!.name;
		return {
			body: { phone: '5550111' },
			check: (res) => {
				expectEmpty(res);
				expect(t1().contacts.get(id)).toMatchObject({ phone: '5550111', name });
			},
		};
	}),
	'PUT /v1/crm/contacts/:id': onCreated(
		() => newContact({ phone: '5550222' }),
		(id) => ({
			body: { name: 'Replaced Org', type: 'organization' },
			check: (res) => {
				expectEmpty(res);
				// PUT replaces: fields left out are cleared.
				expect(t1().contacts.get(id)).toMatchObject({
					name: 'Replaced Org',
					type: 'organization',
					phone: null,
					email: null,
				});
			},
		}),
	),
	'DELETE /v1/crm/contacts/:id': onCreated(newContact, (id) => ({
		check: (res) => {
			expectEmpty(res);
			expect(t1().contacts.has(id)).toBe(false);
		},
	})),
	'POST /v1/crm/contacts/multiple': () => {
		const ids = persons()
			.slice(0, 3)
			.map((c) => c.id as number);
		return {
			body: { contact_ids: ids },
			check: (res) => {
				expect(Array.isArray(res.body)).toBe(true);
				expect(res.body.map((c: any) => c.id)).toEqual(ids);
				for (const c of res.body) expectHasKeys(c, CONTACT_READ);
			},
		};
	},
	'GET /v1/crm/contacts/labels': () => ({
		check: (res) => {
			expect(Array.isArray(res.body)).toBe(true);
			expect(res.body).toHaveLength(t1().labels.size);
			for (const l of res.body) expectKeys(l, LABEL);
		},
	}),
	'POST /v1/crm/contacts/labels': () => {
		const name = uniq('New label');
		return {
			body: { name, color: '#abcdef', icon: 'star', owner_id: crmUser() },
			check: (res) => {
				expectKeys(res.body, ['id']);
				expect(t1().labels.get(res.body.id)).toMatchObject({
					name,
					color: '#abcdef',
					icon: 'star',
					owner_id: crmUser(),
					tenant_id: 1,
				});
			},
		};
	},
	'GET /v1/crm/contacts/labels/:id': onStored(anyLabel, (l) => ({
		check: (res) => {
			expectKeys(res.body, LABEL);
			expect(res.body).toEqual(l);
		},
	})),
	'PUT /v1/crm/contacts/labels/:id': onCreated(newLabel, (id) => ({
		body: { name: 'Renamed label', color: '#000000', icon: 'flag' },
		check: (res) => {
			expectEmpty(res);
			expect(t1().labels.get(id)).toMatchObject({
				name: 'Renamed label',
				color: '#000000',
				icon: 'flag',
			});
		},
	})),
	'DELETE /v1/crm/contacts/labels/:id': onCreated(newLabel, (id) => ({
		check: (res) => {
			expectEmpty(res);
			expect(t1().labels.has(id)).toBe(false);
		},
	})),

	// ----- activities -----
	'GET /v1/crm/activities': () => ({
		query: { page: 1, pageSize: 5, sortBy: 'updated_at', sortDir: 'DESC' },
		check: (res) => {
			expectKeys(res.body, ['data', 'paginationInfo']);
			expectKeys(res.body.paginationInfo, ['page', 'totalRecords', 'isZeroState']);
			expect(res.body.paginationInfo).toEqual({
				page: 1,
				totalRecords: t1()
					.activities.values()
					.filter((a) => !a.is_deleted).length,
				isZeroState: false,
			});
			expect(res.body.data).toHaveLength(5);
			for (const a of res.body.data) expectHasKeys(a, ACTIVITY);
		},
	}),
	'POST /v1/crm/activities': () => {
		const name = uniq('Kick-off meeting');
		const notes = Buffer.from('Agenda: prix, délais ✓').toString('base64');
		const contact = persons()[0].id as number;
		const deal = t1().deals.values()[0].id as number;
		return {
			body: {
				name,
				activity_type: 'meeting',
				start: '2026-12-02T10:00:00Z',
				end: '2026-12-02T11:00:00Z',
				notes,
				is_send_invitation: false,
				is_send_contacts_invitation: false,
				user_timezone: 'Europe/Berlin',
				contact_ids: [contact],
				organization_ids: [],
				assignee_ids: [crmUser()],
				linked_to: deal,
				is_status: false,
			},
			check: (res) => {
				expectKeys(res.body, ['id']);
				expect(t1().activities.get(res.body.id)).toMatchObject({
					name,
					activity_type: 'meeting',
					notes,
					contact_ids: [contact],
					linked_to: deal,
					is_deleted: false,
				});
			},
		};
	},
	'GET /v1/crm/activities/:id': onStored(liveActivity, (a) => ({
		check: (res) => {
			expectHasKeys(res.body, ACTIVITY);
			expect(res.body).toMatchObject({
				id: a.id,
				name: a.name,
				notes: a.notes,
				activity_type: a.activity_type,
			});
		},
	})),
	'PUT /v1/crm/activities/:id': onCreated(newActivity, (id) => ({
		body: { name: 'Renamed call', visibility_type: 'private' },
		check: (res) => {
			expectKeys(res.body, ['id']);
			expect(res.body.id).toBe(id);
			expect(t1().activities.get(id)).toMatchObject({
				name: 'Renamed call',
				visibility_type: 'private',
				start: ACTIVITY_START,
			});
		},
	})),
	'DELETE /v1/crm/activities/:id': onCreated(newActivity, (id) => ({
		check: () => expect(t1().activities.has(id)).toBe(false),
	})),
	'PATCH /v1/crm/activities/bulkUpdate': async () => {
		const ids = [await newActivity(), await newActivity()];
		return {
			body: { ids, visibility_type: 'private', is_status: true },
			check: (res) => {
				// Response body not shown in the spec: the sandbox answers none.
				expectEmpty(res);
				for (const id of ids)
					expect(t1().activities.get(id)).toMatchObject({
						visibility_type: 'private',
						is_status: true,
					});
			},
		};
	},
	'POST /v1/crm/activities/bulkDelete': async () => {
		const ids = [await newActivity(), await newActivity()];
		return {
			body: ids,
			check: () => expect(ids.map((id) => t1().activities.has(id))).toEqual([false, false]),
		};
	},

	// ----- deals -----
	'GET /v1/crm/deals': () => ({
		query: { show_closed_deals: true, limit: 5 },
		check: (res) => {
			expectPageEnvelope(res.body, t1().deals.size, 5);
			for (const d of res.body.data) expectHasKeys(d, DEAL_RESPONSE);
		},
	}),
	'POST /v1/crm/deals': () => {
		const name = uniq('New deal');
		const p = pipeline();
		const stage = openStage(p);
		const contact = persons()[0].id as number;
		return {
			body: {
				name,
				amount: 1234.5,
				currency_code: 'EUR',
				closing_date: '2026-12-31',
				pipeline_id: p.id,
				stage_id: stage.id,
				contact_id: contact,
				owner_id: crmUser(),
				status: 0,
			},
			check: (res) => {
				expectKeys(res.body, ['id', 'success']);
				expect(res.body.success).toBe(true);
				expect(t1().deals.get(res.body.id)).toMatchObject({
					name,
					amount: 1234.5,
					currency_code: 'EUR',
					pipeline_id: p.id,
					stage_id: stage.id,
					contact_id: contact,
				});
			},
		};
	},
	'PATCH /v1/crm/deals': async () => {
		const ids = [await newDeal(), await newDeal()];
		const owner = crmUser(1);
		return {
			body: { ids, owner_id: owner, reason: 'Reassigned' },
			check: (res) => {
				expect(res.body).toEqual(ids);
				for (const id of ids)
					expect(t1().deals.get(id)).toMatchObject({ owner_id: owner, reason: 'Reassigned' });
			},
		};
	},
	'DELETE /v1/crm/deals': async () => {
		const ids = [await newDeal(), await newDeal()];
		return {
			body: { ids },
			check: () => expect(ids.map((id) => t1().deals.has(id))).toEqual([false, false]),
		};
	},
	'GET /v1/crm/deals/:id': onStored(
		() => t1().deals.values()[0],
		(d) => ({
			check: (res) => {
				expectHasKeys(res.body, DEAL_RESPONSE);
				expectKeys(res.body.stage, STAGE_RESPONSE);
				expect(res.body).toMatchObject({
					id: d.id,
					name: d.name,
					amount: d.amount,
					stage_id: d.stage_id,
					pipeline_id: d.pipeline_id,
				});
			},
		}),
	),
	'PUT /v1/crm/deals/:id': onCreated(newDeal, (id) => ({
		body: { name: 'Renamed deal', amount: 99 },
		check: (res) => {
			expectKeys(res.body, ['id', 'success']);
			expect(res.body).toEqual({ id, success: true });
			expect(t1().deals.get(id)).toMatchObject({ name: 'Renamed deal', amount: 99 });
		},
	})),
	'DELETE /v1/crm/deals/:id': onCreated(newDeal, (id) => ({
		check: () => expect(t1().deals.has(id)).toBe(false),
	})),

	// ----- pipelines and stages -----
	'GET /v1/crm/deals/pipelines': () => ({
		check: (res) => {
			expect(Array.isArray(res.body)).toBe(true);
			expect(res.body.map((p: any) => p.id)).toEqual(
				t1()
					.pipelines.values()
					.map((p) => p.id),
			);
			for (const p of res.body) {
				expectKeys(p, PIPELINE);
				p.stages.forEach(expectStageDto);
			}
		},
	}),
	'POST /v1/crm/deals/pipelines': () => {
		const name = uniq('New pipeline');
		return {
			body: { name, stages: [{ ...STAGE_SAMPLE, name: 'Discovery' }] },
			check: (res) => {
				// CUDRecordResponse, with the keys written as in the spec's sample.
				expectKeys(res.body, ['Id', 'Success']);
				expect(res.body.Success).toBe(true);
				const p = t1().pipelines.get(res.body.Id)!;
				expect(p.name).toBe(name);
				expect((p.stages as Doc[]).map((s) => [s.name, s.won_lost_status])).toEqual([
					['Discovery', 'open'],
					['Won', 'won'],
					['Lost', 'lost'],
				]);
			},
		};
	},
	'GET /v1/crm/deals/pipelines/:id': onStored(pipeline, (p) => ({
		check: (res) => {
			expectKeys(res.body, PIPELINE);
			res.body.stages.forEach(expectStageDto);
			expect(res.body).toMatchObject({ id: p.id, name: p.name });
			expect(res.body.stages.map((s: any) => s.id)).toEqual((p.stages as Doc[]).map((s) => s.id));
		},
	})),
	'PUT /v1/crm/deals/pipelines/:id': onCreated(newPipeline, (id) => ({
		body: { name: 'Renamed pipeline' },
		check: (res) => {
			expect(res.body).toEqual({ Id: id, Success: true });
			expect(t1().pipelines.get(id)!.name).toBe('Renamed pipeline');
		},
	})),
	'DELETE /v1/crm/deals/pipelines/:id': onCreated(newPipeline, (id) => ({
		check: () => expect(t1().pipelines.has(id)).toBe(false),
	})),
	'DELETE /v1/crm/deals/pipelines/stages/:id': async () => {
		const pid = await newPipeline(['Discovery', 'Proposal']);
		const stageId = (t1().pipelines.get(pid)!.stages as Doc[])[0].id as number;
		return {
			params: { id: stageId },
			check: () =>
				expect((t1().pipelines.get(pid)!.stages as Doc[]).map((s) => s.name)).toEqual([
					'Proposal',
					'Won',
					'Lost',
				]),
		};
	},

	// ----- tables -----
	'GET /v1/crm/core/table': () => ({
		query: { objectTypes: 'CONTACT,DEAL', databaseName: 'crm' },
		check: (res) => {
			expectKeys(res.body, ['data', 'totalCount']);
			expect(res.body.totalCount).toBe(2);
			expect(res.body.data.map((t: any) => t.objectType).sort()).toEqual(['CONTACT', 'DEAL']);
			for (const t of res.body.data) expectKeys(t, TABLE);
		},
	}),
	'GET /v1/crm/core/table/:tableId': () => {
		const tab = table('DEAL');
		return {
			params: { tableId: tab._id },
			check: (res) => {
				expectKeys(res.body, TABLE);
				expect(res.body).toEqual(tab);
				for (const c of res.body.columnsMetaData) expectHasKeys(c, COLUMN);
				const ref = res.body.columnsMetaData.find((c: any) => c.type === 'ref');
				expectKeys(ref.refTable, ['_id', 'objectType']);
			},
		};
	},
	'GET /v1/crm/core/table/by-object-type': () => ({
		query: { objectTypes: 'CONTACT,STAGE' },
		check: (res) => {
			expectKeys(res.body, ['CONTACT', 'STAGE']);
			for (const type of ['CONTACT', 'STAGE']) {
				expectKeys(res.body[type], TABLE);
				expect(res.body[type]).toEqual(table(type));
			}
		},
	}),

	// ----- records -----
	'POST /v1/crm/core/table/:tableId/record': () => {
		const tab = table('CONTACT');
		const emailCol = columnId(tab, (c) => c.type === 'email');
		const cells = { [nameCol(tab)]: uniq('Record'), [emailCol]: uniqEmail() };
		return {
			params: { tableId: tab._id },
			body: { cells },
			check: (res) => {
				expectKeys(res.body, ['success', 'id', 'data']);
				expect(res.body.success).toBe(true);
				expectRecord(res.body.data);
				expect(res.body.data._id).toBe(res.body.id);
				expect(recordsOf(tab).get(res.body.id)).toMatchObject({ cells, createdBy: 1 });
			},
		};
	},
	'POST /v1/crm/core/table/:tableId/paged-record': () => {
		const tab = table('CONTACT');
		return {
			params: { tableId: tab._id },
			query: { pageNo: 1, pageSize: 5, sortCol: 'createdAt', sortDir: -1 },
			body: { logicalOperator: 'and', conditions: [] },
			check: (res) => {
				expectKeys(res.body, ['totalCount', 'sortCol', 'sortDir', 'pageNo', 'pageSize', 'data']);
				expect(res.body).toMatchObject({
					totalCount: recordsOf(tab).size,
					sortCol: 'createdAt',
					sortDir: -1,
					pageNo: 1,
					pageSize: 5,
				});
				expect(res.body.data).toHaveLength(5);
				res.body.data.forEach(expectRecord);
			},
		};
	},
	'GET /v1/crm/core/table/:tableId/record/:recordId': () => {
		const tab = table('DEAL');
		const rec = recordsOf(tab).values()[0];
		return {
			params: { tableId: tab._id, recordId: rec._id as string },
			check: (res) => {
				expectRecord(res.body);
				expect(res.body).toEqual(rec);
			},
		};
	},
	'GET /v1/crm/core/table/:tableId/count': () => {
		const tab = table('STAGE');
		return {
			params: { tableId: tab._id },
			check: (res) => expect(res.body).toEqual({ count: recordsOf(tab).size }),
		};
	},
	'PUT /v1/crm/core/table/:tableId/record/:recordId': async () => {
		const tab = table('CONTACT');
		const id = await newRecord(tab);
		const scoreCol = columnId(tab, (c) => c.type === 'number');
		return {
			params: { tableId: tab._id, recordId: id },
			body: { cells: { [nameCol(tab)]: 'Renamed record', [scoreCol]: 42 } },
			check: (res) => {
				expectKeys(res.body, ['success', 'id', 'data']);
				expect(res.body).toMatchObject({ success: true, id });
				expectRecord(res.body.data);
				expect((recordsOf(tab).get(id) as any).cells).toMatchObject({
					[nameCol(tab)]: 'Renamed record',
					[scoreCol]: 42,
				});
			},
		};
	},
	'DELETE /v1/crm/core/table/:tableId/record/:recordId': async () => {
		const tab = table('PIPELINE');
		const id = await newRecord(tab);
		return {
			params: { tableId: tab._id, recordId: id },
			check: (res) => {
				expect(res.body).toEqual({ success: true, id });
				expect(recordsOf(tab).has(id)).toBe(false);
			},
		};
	},

	// ----- campaign forms -----
	'GET /v1/crm/campaign/assets/form-templates/:id': onStored(
		() => t1().forms.values()[0],
		(f) => ({
			check: (res) => {
				// A string: the markup of the form template.
				expect(String(res.headers['content-type'])).toContain('text/html');
				expect(typeof res.body).toBe('string');
				expect(res.text).toContain(`<form class="pf-form" id="pf-form-${String(f.id)}"`);
				expect(res.text).toContain(String(f.name));
			},
		}),
	),
	'GET /v1/crm/campaign/assets/forms': () => ({
		query: { page: 1, limit: 5 },
		check: (res) => {
			expectKeys(res.body, ['data']);
			expect(res.body.data).toHaveLength(5);
			for (const f of res.body.data) {
				expectKeys(f, FORM);
				expectKeys(JSON.parse(f.template), ['html', 'components', 'assets', 'css', 'styles']);
			}
		},
	}),
	'GET /v1/crm/campaign/assets/forms/:id': onStored(
		() => t1().forms.values()[0],
		(f) => ({
			check: (res) => {
				expectKeys(res.body, FORM);
				expect(res.body).toEqual(f);
			},
		}),
	),
	'DELETE /v1/crm/campaign/assets/forms/:id': () => {
		// Form creation has no documented path: a copy of a seeded form is put in the state.
		const id = ctx.sb.store.nextInt('form');
		t1().forms.set(id, { ...t1().forms.values()[0], id, name: uniq('Disposable form') });
		return {
			params: { id },
			check: () => expect(t1().forms.has(id)).toBe(false),
		};
	},

	// ----- campaign categories -----
	'GET /v1/crm/campaign/category': () => ({
		query: { page: 1, limit: 5 },
		check: (res) => {
			expectPageEnvelope(res.body, t1().categories.size, 5);
			for (const c of res.body.data) expectKeys(c, CATEGORY);
		},
	}),
	'POST /v1/crm/campaign/category': () => {
		const name = uniq('New category');
		return {
			body: {
				name,
				description: 'Autumn campaigns',
				is_published: true,
				category_type: 'CAMPAIGN',
			},
			check: (res) => {
				expectKeys(res.body, ['id']);
				expect(t1().categories.get(res.body.id)).toMatchObject({
					name,
					description: 'Autumn campaigns',
					is_published: true,
					category_type: 'CAMPAIGN',
					owner_id: 1,
				});
			},
		};
	},
	'GET /v1/crm/campaign/category/:id': onStored(
		() => t1().categories.values()[0],
		(c) => ({
			check: (res) => {
				expectKeys(res.body, CATEGORY);
				expect(res.body).toMatchObject({
					id: c.id,
					name: c.name,
					color: c.color,
					is_published: c.is_published,
				});
			},
		}),
	),
	'PATCH /v1/crm/campaign/category/:id': onCreated(newCategory, (id) => ({
		body: { name: 'Renamed category', is_published: true },
		check: (res) => {
			// Response body not shown in the spec: the sandbox answers none.
			expectEmpty(res);
			expect(t1().categories.get(id)).toMatchObject({
				name: 'Renamed category',
				is_published: true,
				description: 'For the catalogue test',
			});
		},
	})),
	'DELETE /v1/crm/campaign/category/:id': onCreated(newCategory, (id) => ({
		check: () => expect(t1().categories.has(id)).toBe(false),
	})),

	// ----- campaign email templates -----
	'GET /v1/crm/campaign/email-templates': () => ({
		query: { page: 1, limit: 5 },
		check: (res) => {
			expectPageEnvelope(
				res.body,
				t1()
					.emailTemplates.values()
					.filter((t) => !t.is_deleted).length,
				5,
			);
			for (const t of res.body.data) {
				expectHasKeys(t, EMAIL_TEMPLATE);
				if (t.category) expectKeys(t.category, CATEGORY);
			}
		},
	}),
	'POST /v1/crm/campaign/email-templates': () => {
		const name = uniq('New template');
		const category = t1().categories.values()[0].id as number;
		const templateJson = encodeURIComponent(
			JSON.stringify({ body: { rows: [] }, note: 'ünïcode & 100%' }),
		);
		return {
			body: {
				category_id: category,
				image: 'https://assets.example/t.png',
				name,
				template_html: '<p>Hello</p>',
				template_json: templateJson,
			},
			check: (res) => {
				// Response not shown in the spec: the sandbox answers 201 CreateResponse {id}.
				expectKeys(res.body, ['id']);
				expect(t1().emailTemplates.get(res.body.id)).toMatchObject({
					name,
					category_id: category,
					template_json: templateJson,
					template_html: '<p>Hello</p>',
				});
			},
		};
	},

	// ----- people users -----
	'GET /v1/people/users': () => ({
		query: { limit: 5, currentPage: 1, order: 'desc', field: '_id', includeDraft: true },
		check: (res) => {
			expectKeys(res.body, GET_USERS);
			expect(res.body.status).toBe('success');
			expectFilterConfig(res.body.filterConfig, t1().peopleUsers.size, 5);
			expect(res.body.beneficiariesToAdd).toBe(
				String(
					t1()
						.peopleUsers.values()
						.filter((u) => !u.beneficiaryId && u.beneficiaryStatus !== 'PENDING').length,
				),
			);
			expect(res.body.users).toHaveLength(5);
			for (const u of res.body.users) expect(typeof u.iamUserId).toBe('string');
		},
	}),
	'POST /v1/people/users': () => {
		const emailId = uniqEmail();
		return {
			body: {
				firstName: 'Grace',
				lastName: uniq('Hopper'),
				emailId,
				designation: 'Software Engineer',
				gender: 'female',
				employeeType: 'FULL_TIME',
				countryCode: 'US',
				compensation: 120000,
				compensationCurrency: 'USD',
				compensationPeriod: 'yearly',
				dateOfJoining: '2026-01-05T00:00:00Z',
				address: {
					addressLine1: '1 Main St',
					city: 'Austin',
					state: 'TX',
					zipCode: '73301',
					country: 'US',
				},
				paymentDetails: {
					bank: 'Sandbox Bank',
					paymentMethod: 'directDeposit',
					accountType: 'checking',
				},
			},
			check: (res) => {
				expectKeys(res.body, GET_USER);
				expect(res.body).toMatchObject({
					status: 'success',
					errors: [],
					httpStatusCode: '200',
					error: null,
				});
				const id = res.body.user.userId;
				expect(typeof id).toBe('string');
				expect(t1().peopleUsers.get(id)).toMatchObject({
					firstName: 'Grace',
					emailId,
					designation: 'Software Engineer',
					address: { city: 'Austin' },
				});
			},
		};
	},
	'PUT /v1/people/users': async () => {
		const userId = await newPeopleUser({ designation: 'Designer' });
		return {
			body: { userId, firstName: 'Replaced', lastName: 'User' },
			check: (res) => {
				expectKeys(res.body, GET_USER);
				expect(res.body.httpStatusCode).toBe('200');
				// PUT replaces the user: fields left out go back to their defaults.
				expect(t1().peopleUsers.get(userId)).toMatchObject({
					firstName: 'Replaced',
					lastName: 'User',
					designation: '',
				});
			},
		};
	},
	'PATCH /v1/people/users': async () => {
		const userId = await newPeopleUser({ designation: 'Designer' });
		return {
			body: { userId, lastName: 'Patched' },
			check: (res) => {
				expectKeys(res.body, GET_USER);
				expect(res.body.user).toMatchObject({ userId, lastName: 'Patched' });
				expect(t1().peopleUsers.get(userId)).toMatchObject({
					firstName: 'Cata',
					lastName: 'Patched',
					designation: 'Designer',
				});
			},
		};
	},
	'POST /v1/people/users/delete/bulk': async () => {
		const ids = [await newPeopleUser(), await newPeopleUser()];
		return {
			body: { ids, forcedDelete: false },
			check: (res) => {
				expectKeys(res.body, DELETE_RESPONSE);
				expect(res.body).toMatchObject({ status: 'success', errCode: '' });
				expect(ids.map((id) => t1().peopleUsers.has(id))).toEqual([false, false]);
			},
		};
	},
	'POST /v1/people/users/filtered-users': () => {
		const target = peopleUser((u) => Boolean(u.emailId));
		return {
			query: { limit: 10, currentPage: 1 },
			body: {
				conditions: [{ colId: 'emailId', value: target.emailId, opr: 'eq', key: 'emailId' }],
			},
			check: (res) => {
				expectKeys(res.body, GET_USERS);
				expectFilterConfig(res.body.filterConfig, 1, 10);
				expect(res.body.users.map((u: any) => u.userId)).toEqual([target.userId]);
			},
		};
	},
	'GET /v1/people/users/approvers/list': () => {
		const u = peopleUser((x) => (x.approvers as Doc[]).length > 0);
		const approvers = (u.approvers as Doc[]).map((a) => a.iamUserId);
		return {
			query: {
				id: u.userId as string,
				getCompliance: false,
				getComponents: true,
				getBenefits: true,
				getRolesAndTeams: true,
			},
			check: (res) => {
				expectKeys(res.body, GET_USERS);
				expectFilterConfig(res.body.filterConfig, approvers.length, 10);
				expect(res.body.users.map((x: any) => x.iamUserId).sort()).toEqual([...approvers].sort());
			},
		};
	},
	'GET /v1/people/users/designations': () => ({
		check: (res) => {
			expectKeys(res.body, ['status', 'designations']);
			const expected = [
				...new Set(
					t1()
						.peopleUsers.values()
						.map((u) => u.designation as string)
						.filter(Boolean),
				),
			].sort();
			expect(res.body).toEqual({ status: 'success', designations: expected });
		},
	}),
	'PUT /v1/people/users/beneficiary-status': async () => {
		const userId = await newPeopleUser();
		return {
			body: {
				beneficiaryStatusInfo: [
					{
						beneficiaryDetails: [{ userId, reason: 'Bank verified', beneId: 'BENE-CATALOGUE' }],
						operation: 'ACTIVE',
					},
				],
			},
			check: (res) => {
				expectKeys(res.body, ['status']);
				expect(t1().peopleUsers.get(userId)).toMatchObject({
					beneficiaryStatus: 'ACTIVE',
					beneficiaryReason: 'Bank verified',
					beneficiaryId: 'BENE-CATALOGUE',
				});
			},
		};
	},
	'POST /v1/people/users/sync-beneficiaries': async () => {
		const userId = await newPeopleUser();
		return {
			body: {},
			check: (res) => {
				expectKeys(res.body, ['status']);
				expect(res.body.status).toMatch(/initiated/i);
				expect(t1().peopleUsers.get(userId)!.beneficiaryStatus).toBe('PENDING');
			},
		};
	},
	'GET /v1/people/users/in/tax-declaration-info/list': () => ({
		query: { limit: 5, currentPage: 1, stage: 'all' },
		check: (res) => {
			expectKeys(res.body, ['status', 'taxDeclarationInfo', 'filterConfig']);
			expectFilterConfig(res.body.filterConfig, t1().taxDeclarations.size, 5);
			for (const t of res.body.taxDeclarationInfo)
				expectKeys(t, ['userId', 'employeeName', 'submitOn', 'status', 'rejectedItems']);
		},
	}),

	// ----- payruns and paystubs -----
	'GET /v1/people-pay-run/payruns': () => ({
		query: { limit: 5, currentPage: 1, sortOrder: 'desc', sortField: 'createdAt' },
		check: (res) => {
			expectKeys(res.body, ['payruns', 'filterResponse']);
			const n = t1().payruns.size;
			expectKeys(res.body.filterResponse, [
				'currentPage',
				'count',
				'limit',
				'totalPages',
				'totalCount',
			]);
			expect(res.body.filterResponse).toEqual({
				currentPage: 1,
				count: Math.min(5, n),
				limit: 5,
				totalPages: Math.ceil(n / 5),
				totalCount: n,
			});
			for (const p of res.body.payruns) expectHasKeys(p, PAYRUN);
		},
	}),
	'POST /v1/people-pay-run/payruns': () => {
		const body = payrunBody();
		return {
			body,
			check: (res) => {
				expectHasKeys(res.body, [...PAYRUN, 'payrolls']);
				expect(res.body.payrolls.map((pr: any) => pr.userId)).toEqual(body.employees);
				for (const pr of res.body.payrolls) expectHasKeys(pr, PAYROLL);
				expect(t1().payruns.get(res.body._id)).toMatchObject({
					workPeriod: { from: '08/01/2026', to: '08/31/2026' },
					employees: body.employees,
					stage: 'draft',
				});
			},
		};
	},
	'DELETE /v1/people-pay-run/payruns': async () => {
		const id = await newPayrun();
		return {
			body: [{ payrunId: id }],
			check: (res) => {
				// A Payrun-shaped object with empty values.
				expectHasKeys(res.body, PAYRUN);
				expect(res.body).toMatchObject({
					_id: '',
					payPeriod: '',
					totalCost: 0,
					processed: false,
					employees: [],
					workPeriod: { from: '', to: '' },
				});
				expect(t1().payruns.has(id)).toBe(false);
			},
		};
	},
	'GET /v1/people-pay-run/payruns/year/:year': () => {
		const year = t1().payruns.values()[0].year as number;
		return {
			params: { year },
			query: { limit: 100, currentPage: 1 },
			check: (res) => {
				expectKeys(res.body, ['payruns']);
				expect(res.body.payruns.map((p: any) => p._id).sort()).toEqual(
					t1()
						.payruns.values()
						.filter((p) => p.year === year)
						.map((p) => p._id)
						.sort(),
				);
				for (const p of res.body.payruns) expectHasKeys(p, PAYRUN);
			},
		};
	},
	'POST /v1/people-pay-run/payruns/sync-je': async () => {
		const payrunId = await newPayrun();
		return {
			body: { payrun: [{ jeDate: '09/02/2026', payrunId }] },
			check: (res) => {
				// A text confirmation.
				expect(String(res.headers['content-type'])).toContain('text/plain');
				expect(res.text).toMatch(/posted/i);
				expect(res.text).toContain(payrunId);
				const p: any = t1().payruns.get(payrunId);
				expect(p.jeStatus).toBe('POSTED');
				expect(p.jeDetails).toEqual([
					expect.objectContaining({ jeStatus: 'POSTED', jeId: p.jeId, isRevertJE: false }),
				]);
			},
		};
	},
	'POST /v1/people-pay-run/payruns/revert-je': async () => {
		const payrunId = await newPayrun();
		await setup('POST', '/v1/people-pay-run/payruns/sync-je', {
			payrun: [{ jeDate: '09/02/2026', payrunId }],
		});
		const jeId = Number(t1().payruns.get(payrunId)!.jeId);
		return {
			body: { revertPayrun: [{ jeId, jeRevertDate: '09/03/2026', payrunId }] },
			check: (res) => {
				expect(String(res.headers['content-type'])).toContain('text/plain');
				expect(res.text).toMatch(/reverted/i);
				const p: any = t1().payruns.get(payrunId);
				expect(p).toMatchObject({ jeStatus: 'REVERTED', isPayrunReverted: true });
				expect(p.jeDetails.map((d: any) => [d.jeStatus, d.isRevertJE])).toEqual([
					['POSTED', false],
					['REVERTED', true],
				]);
			},
		};
	},
	'GET /v1/people-pay-run/paystubs/employee/:employeeId': () => {
		const employeeId = t1().paystubs.values()[0].employeeId as string;
		const mine = t1()
			.paystubs.values()
			.filter((p) => p.employeeId === employeeId);
		return {
			params: { employeeId },
			query: { limit: 100, currentPage: 1, sortOrder: 'desc', sortField: 'createdAt' },
			check: (res) => {
				expectKeys(res.body, ['paystubs']);
				expect(res.body.paystubs.map((p: any) => p._id).sort()).toEqual(
					mine.map((p) => p._id).sort(),
				);
				for (const p of res.body.paystubs) {
					expectHasKeys(p, PAYSTUB);
					expect(p.employeeId).toBe(employeeId);
				}
			},
		};
	},

	// ----- component groups -----
	'GET /v1/people/tenants/component-group': () => {
		const g = t1().componentGroups.values()[0];
		return {
			query: { id: g.id as string, getComponents: true, getBenefits: true },
			check: (res) => {
				expectKeys(res.body, ['status', 'componentGroups', 'filterConfig', 'error']);
				expect(res.body).toMatchObject({ status: 'success', error: null });
				expectFilterConfig(res.body.filterConfig, 1, 1);
				expect(res.body.componentGroups).toEqual([g]);
				expectKeys(res.body.componentGroups[0], COMPONENT_GROUP);
			},
		};
	},
	'POST /v1/people/tenants/component-group': () => {
		const name = uniq('New group');
		const member = peopleUser((u) => u.type === 'EMPLOYEE').userId as string;
		return {
			body: {
				name,
				hasFixedComponents: true,
				fixedComponents: [
					{
						name: 'Meal allowance',
						amount: 100,
						type: 'EARNING',
						status: 'active',
						componentConfig: {
							configureAmountBasis: 'fixed',
							componentPercent: 0,
							amountPerDay: 0,
						},
						frequency: { period: 'everyPayrun', occurrence: [], when: '' },
					},
				],
				applyToAll: false,
				users: [member],
			},
			check: (res) => {
				expectKeys(res.body, COMPONENT_GROUP);
				expect(typeof res.body.id).toBe('string');
				expect(t1().componentGroups.get(res.body.id)).toMatchObject({
					name,
					users: [member],
					fixedComponents: [
						expect.objectContaining({ name: 'Meal allowance', amount: 100, type: 'EARNING' }),
					],
				});
				expect(t1().peopleUsers.get(member)!.componentGroup).toBe(res.body.id);
			},
		};
	},
	'PUT /v1/people/tenants/component-group': async () => {
		const id = await newGroup();
		return {
			body: {
				id,
				name: uniq('Renamed group'),
				hasBenefits: true,
				benefits: [{ benefitId: 'benefit-catalogue' }],
			},
			check: (res) => {
				expectKeys(res.body, COMPONENT_GROUP);
				expect(res.body.id).toBe(id);
				expect(t1().componentGroups.get(id)).toMatchObject({
					name: res.body.name,
					hasBenefits: true,
					benefits: [{ benefitId: 'benefit-catalogue' }],
				});
			},
		};
	},
	'POST /v1/people/tenants/component-group/delete': async () => {
		const id = await newGroup();
		return {
			body: { ids: [id] },
			check: (res) => {
				expectKeys(res.body, DELETE_RESPONSE);
				expect(res.body).toMatchObject({ status: 'success', errCode: '' });
				expect(t1().componentGroups.has(id)).toBe(false);
			},
		};
	},

	// ----- webhooks -----
	'POST /v1/webhooks/register': () => {
		const body = hookBody();
		return {
			body,
			check: (res) => {
				expectKeys(res.body, HOOK);
				expect(res.body).toMatchObject({
					eventType: 'STOCK_IN',
					webhookUrl: body.webhookUrl,
					deleted: false,
				});
				expect(Number.isInteger(res.body.hookId)).toBe(true);
				expect(t1().webhooks.get(res.body.hookId)).toMatchObject({
					eventType: 'STOCK_IN',
					webhookUrl: body.webhookUrl,
					deleted: false,
				});
			},
		};
	},
	'DELETE /v1/webhooks/delete/:id': onCreated(newHook, (id) => ({
		check: (res) => {
			expectKeys(res.body, HOOK);
			expect(res.body).toMatchObject({ hookId: id, deleted: true });
			expect(t1().webhooks.get(id)!.deleted).toBe(true);
		},
	})),
	'GET /v1/webhooks': async () => {
		const id = await newHook();
		return {
			check: (res) => {
				expect(Array.isArray(res.body)).toBe(true);
				for (const h of res.body) expectKeys(h, HOOK);
				expect(res.body.map((h: any) => h.hookId).sort()).toEqual(
					t1()
						.webhooks.values()
						.filter((h) => !h.deleted)
						.map((h) => h.hookId)
						.sort(),
				);
				expect(res.body.map((h: any) => h.hookId)).toContain(id);
			},
		};
	},
};

// ---------- the tests ----------

const key = (method: string, path: string) => `${method} ${path}`;
const rows = ENDPOINTS.map((x) => [x.method, x.path, x.status] as const);

describe('every catalogue endpoint: one proof of its documented success', () => {
	it.each(rows)('%s %s has a sample request', (method, path) => {
		expect(Object.keys(SAMPLES)).toContain(key(method, path));
	});

	it('has no sample for an endpoint the catalogue lacks', () => {
		const catalogue = new Set(ENDPOINTS.map((x) => key(x.method, x.path)));
		expect(Object.keys(SAMPLES).filter((k) => !catalogue.has(k))).toEqual([]);
	});

	it.each(rows)(
		'%s %s answers %i with the documented shape and outcome',
		async (method, path, status) => {
			const build = SAMPLES[key(method, path)];
			expect(build).toBeDefined();
			const sample = await build();
			const res = await call(ctx.sb, method, fill(path, sample.params), {
				query: sample.query,
				body: sample.body,
			});
			// The body is printed only when the status is not the documented one.
			expect(`${res.status} ${res.status === status ? '' : res.text.slice(0, 1000)}`.trim()).toBe(
				String(status),
			);
			// The request reached the route the catalogue names (not a look-alike such as /contacts/:id for /contacts/labels).
			const log = ctx.sb.requests();
			const entry = log[log.length - 1];
			expect([entry.route && shape(entry.route), entry.status, entry.tenantId]).toEqual([
				shape(key(method, path)),
				status,
				1,
			]);
			if (status === 204) expectEmpty(res);
			else if (res.text !== '' && typeof res.body !== 'string') expectJson(res);
			sample.check(res);
		},
	);
});
