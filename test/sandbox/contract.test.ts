/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The contract (contract/openapi.yaml) against the code on both sides: every operation of
 * the documents has a node operation that sends it and a sandbox route that answers it,
 * and neither side has an endpoint the contract lacks. A failure names the files to add.
 * Also the document itself: unique operation ids, a module and a success status on each,
 * and only schema keywords the checker knows (ajv runs without strict mode on the
 * OpenAPI around the schemas).
 */
import { CAMPAIGNS_RESOURCES } from '../../nodes/BusinessPlatformCampaigns/resources';
import { PEOPLE_RESOURCES } from '../../nodes/BusinessPlatformPeople/resources';
import { SALES_RESOURCES } from '../../nodes/BusinessPlatformSales/resources';
import { EVENTS } from '../../nodes/BusinessPlatformSalesTrigger/events';
import type { Resource } from '../../nodes/shared/engine/model';
import { ContractChecker } from '../../sandbox/src/contract/check';
import type { ContractOperation } from '../../sandbox/src/contract/load';
import { EVENT_TYPES } from '../../sandbox/src/webhooks';
import { useSandbox } from '../helpers/sandbox';
import { CONTRACT, ENDPOINTS, shape } from './catalogue';

const ctx = useSandbox();

const NODES: Record<string, { folder: string; resources: Resource[] }> = {
	sales: { folder: 'nodes/BusinessPlatformSales', resources: SALES_RESOURCES },
	campaigns: { folder: 'nodes/BusinessPlatformCampaigns', resources: CAMPAIGNS_RESOURCES },
	people: { folder: 'nodes/BusinessPlatformPeople', resources: PEOPLE_RESOURCES },
};
/** Where the sandbox serves each resource of the contract (its operationId's first part). */
const SANDBOX_FILES: Record<string, string> = {
	contact: 'sandbox/src/modules/contacts/index.ts and contacts.ts',
	contactLabel: 'sandbox/src/modules/contacts/index.ts and labels.ts',
	activity: 'sandbox/src/modules/activities.ts',
	deal: 'sandbox/src/modules/deals/index.ts and deals.ts',
	pipeline: 'sandbox/src/modules/deals/index.ts and pipelines.ts',
	stage: 'sandbox/src/modules/deals/index.ts and stages.ts',
	table: 'sandbox/src/modules/tables/index.ts and tables.ts',
	record: 'sandbox/src/modules/tables/index.ts and records.ts',
	form: 'sandbox/src/modules/campaigns/index.ts and forms.ts',
	category: 'sandbox/src/modules/campaigns/index.ts and categories.ts',
	emailTemplate: 'sandbox/src/modules/campaigns/index.ts and templates.ts',
	user: 'sandbox/src/modules/people/index.ts and a file beside it',
	payrun: 'sandbox/src/modules/payroll/index.ts and payruns.ts',
	paystub: 'sandbox/src/modules/payroll/index.ts and paystubs.ts',
	componentGroup: 'sandbox/src/modules/payroll/index.ts and componentGroups.ts',
	webhook: 'sandbox/src/webhooks.ts',
	oauth: 'sandbox/src/auth.ts',
	token: 'sandbox/src/auth.ts',
};

const key = (method: string, path: string) => `${method} ${shape(path)}`;
const resourceOf = (op: ContractOperation) => op.id.split('_')[0];
const nodeOps = (module: string) =>
	NODES[module].resources.flatMap((r) =>
		r.operations
			.filter((o) => o.method && o.path)
			.map((o) => ({ resource: r.value, op: o, key: key(o.method!, o.path!) })),
	);

/** What a contributor adds for a contract operation that no node operation sends. */
function nodeFilesToAdd(op: ContractOperation): string {
	const folder = `${NODES[op.module].folder}/resources/${resourceOf(op)}`;
	return [
		`${op.method} ${op.path} (${op.id}) has no node operation. Add:`,
		`  ${folder}/<operation>.ts: an Operation with method '${op.method}' and path '${op.path}' (CONTRIBUTING.md "Add an endpoint")`,
		`  ${folder}/index.ts: list it in the resource's operations (a new resource also goes in ${NODES[op.module].folder}/resources/index.ts)`,
		`  test/integration/: a test running it against the sandbox`,
		`  npm run descriptions:update (the description snapshot), docs/operations.md, README.md operations overview, CHANGELOG.md`,
	].join('\n');
}

describe('the platform contract', () => {
	it('names every operation once, with its module and a documented success status', () => {
		const ids = CONTRACT.operations.map((o) => o.id);
		expect(new Set(ids).size).toBe(ids.length);
		for (const op of CONTRACT.operations) {
			expect({
				id: op.id,
				module: ['sales', 'campaigns', 'people', 'webhooks', 'auth'].includes(op.module),
			}).toEqual({ id: op.id, module: true });
			if (op.module !== 'auth')
				expect({
					id: op.id,
					success: [...op.responses.keys()].filter((k) => /^2\d\d$/.test(k)).length,
				}).toEqual({ id: op.id, success: 1 });
			expect({ id: op.id, resource: SANDBOX_FILES[resourceOf(op)] !== undefined }).toEqual({
				id: op.id,
				resource: true,
			});
		}
	});

	it('uses only JSON Schema keywords the checker knows (a typo would otherwise pass silently)', () => {
		const KNOWN = new Set(
			'type properties additionalProperties required items enum oneOf anyOf allOf $ref description title default format pattern patternProperties maxProperties contentEncoding x-chosen'.split(
				' ',
			),
		);
		const unknown = new Set<string>();
		const walk = (schema: unknown, inProperties = false): void => {
			if (!schema || typeof schema !== 'object') return;
			if (Array.isArray(schema)) return schema.forEach((s) => walk(s));
			for (const [k, v] of Object.entries(schema)) {
				if (inProperties) walk(v);
				else {
					if (!KNOWN.has(k)) unknown.add(k);
					if (k === 'properties' || k === 'patternProperties') walk(v, true);
					else if (['items', 'additionalProperties', 'oneOf', 'anyOf', 'allOf'].includes(k))
						walk(v);
				}
			}
		};
		const doc = CONTRACT.doc as { components: { schemas: Record<string, unknown> } };
		Object.values(doc.components.schemas).forEach((s) => walk(s));
		const at = (pointer: string) =>
			pointer
				.split('/')
				.slice(1)
				.reduce<any>((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], CONTRACT.doc); // eslint-disable-line @typescript-eslint/no-explicit-any
		for (const op of CONTRACT.operations) {
			op.params.forEach((p) => walk(p.schema));
			for (const pointer of op.body?.media.values() ?? []) walk(at(pointer));
			for (const c of op.responses.values())
				for (const pointer of c?.media.values() ?? []) walk(at(pointer));
		}
		expect([...unknown]).toEqual([]);
	});

	it.each(Object.keys(NODES))(
		'every %s operation of the contract is sent by a node operation, and the node sends nothing else',
		(module) => {
			const sent = nodeOps(module);
			const missing = CONTRACT.operations.filter(
				(op) => op.module === module && !sent.some((s) => s.key === key(op.method, op.path)),
			);
			if (missing.length) throw new Error(missing.map(nodeFilesToAdd).join('\n\n'));
			const contractKeys = new Set(CONTRACT.operations.map((o) => key(o.method, o.path)));
			const invented = sent
				.filter((s) => !contractKeys.has(s.key))
				.map(
					(s) =>
						`${NODES[module].folder}/resources/${s.resource}/${s.op.value}.ts sends ${s.key}, which contract/openapi.yaml does not have`,
				);
			expect(invented).toEqual([]);
		},
	);

	it('every operation of the contract has a sandbox route, and the sandbox serves nothing else', () => {
		const served = new Set(ctx.sb.routes().map((r) => key(r.method, r.pattern)));
		const missing = CONTRACT.operations
			.filter((op) => !served.has(key(op.method, op.path)))
			.map(
				(op) =>
					`${op.method} ${op.path} (${op.id}) has no sandbox route. Add it in ${SANDBOX_FILES[resourceOf(op)]}, and a sample in test/sandbox/catalogue-success.test.ts`,
			);
		if (missing.length) throw new Error(missing.join('\n'));
		const contractKeys = new Set(CONTRACT.operations.map((o) => key(o.method, o.path)));
		expect([...served].filter((k) => !contractKeys.has(k))).toEqual([]);
	});

	it('has the events the sandbox sends and the Trigger offers', () => {
		const doc = CONTRACT.doc as { components: { schemas: { EventType: { enum: string[] } } } };
		const events = doc.components.schemas.EventType.enum;
		expect([...EVENT_TYPES].sort()).toEqual([...events].sort());
		expect(EVENTS.map((e) => e.value).sort()).toEqual([...events].sort());
	});

	it('gives the catalogue its endpoints: those that carry a token, per module', () => {
		const count = (m: string) => ENDPOINTS.filter((x) => x.module === m).length;
		expect(ENDPOINTS.length).toBe(CONTRACT.operations.filter((o) => o.module !== 'auth').length);
		expect(count('sales') + count('campaigns') + count('people') + count('webhooks')).toBe(
			ENDPOINTS.length,
		);
		for (const m of ['sales', 'campaigns', 'people', 'webhooks'])
			expect({ m, some: count(m) > 0 }).toEqual({ m, some: true });
	});
});

describe('timestamps carry their format (issue 32): a platform that changed how it writes times is caught', () => {
	const checker = new ContractChecker();
	const op = (id: string) => CONTRACT.operations.find((o) => o.id === id)!;
	const record = (createdAt: string) =>
		JSON.stringify({
			data: [{ _id: 'r1', cells: {}, createdAt, updatedAt: createdAt, createdBy: 1 }],
			totalCount: 1,
			pageNo: 1,
			pageSize: 30,
			sortCol: 'createdAt',
			sortDir: -1,
		});
	const payruns = (processedAt: string) =>
		JSON.stringify({
			payruns: [
				{
					_id: 'p1',
					createdAt: '2026-11-27T05:00:00.000Z',
					updatedAt: '2026-11-27T05:00:00Z',
					processedAt,
				},
			],
		});

	it.each([
		'2026-11-27T05:00:00.000Z',
		'2026-11-27T05:00:00.123456Z',
		'2026-11-27T06:00:00+01:00',
		'0001-01-01T00:00:00Z',
	])('accepts the forms the documents show: %s', (time) => {
		expect(
			checker.checkResponse(op('record_search'), 200, 'application/json', record(time)),
		).toEqual([]);
		expect(
			checker.checkResponse(op('payrun_byYear'), 200, 'application/json', payruns(time)),
		).toEqual([]);
	});

	it.each([
		'27/11/2026 05:00',
		'1764219600000',
		'2026-11-27 05:00:00',
		'Fri Nov 27 2026',
		'2026-11-27T05:00:00',
	])('refuses another form: %s', (time) => {
		expect(
			checker.checkResponse(op('record_search'), 200, 'application/json', record(time)).join('\n'),
		).toMatch(/createdAt must match format "date-time"/);
		expect(
			checker.checkResponse(op('payrun_byYear'), 200, 'application/json', payruns(time)).join('\n'),
		).toMatch(/processedAt must match format "date-time"/);
	});
});
