/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The admin endpoints (/__admin/…): no token, the sandbox only listens on
 * loopback. Statistics, the request log, faults, tokens, configuration, events,
 * raw state, bulk seeding, reset and restart (see the README's table).
 */
import type { Auth, AuthMode } from './auth';
import type { ContractLog } from './contract/log';
import { DEMO_IDENTITIES } from './config';
import type { Env } from './env';
import type { FaultRule, Faults } from './faults';
import { ApiError, type Ctx, type Reply, type Router } from './http';
import { MODULES } from './modules';
import { advancePayrun } from './modules/payroll/lifecycle';
import type { LoggedRequest } from './requestLog';
import { isCollectionName, type Doc } from './state';
import { EVENT_TYPES, type Webhooks } from './webhooks';

export interface AdminDeps {
	env: Env;
	auth: Auth;
	faults: Faults;
	hooks: Webhooks;
	stats(): Record<string, unknown>;
	resetStats(): void;
	requests(): LoggedRequest[];
	reset(): void;
	restart(ms: number): Promise<void>;
	/** Present when the sandbox checks traffic against the contract. */
	contract?: ContractLog;
}

export function registerAdmin(r: Router<undefined>, d: AdminDeps): void {
	const none = { auth: 'none' as const };
	const body = (ctx: Ctx<unknown>) =>
		ctx.body && typeof ctx.body === 'object' ? (ctx.body as Record<string, unknown>) : {};
	const ok = (b: unknown = { ok: true }): Reply => ({ status: 200, body: b });
	const tenantId = (v: unknown) =>
		typeof v === 'number'
			? v
			: typeof v === 'string' && v !== ''
				? Number(v)
				: DEMO_IDENTITIES[0].tenantId;

	r.add('GET', '/__admin/health', () => ok({ ok: true, mode: d.env.config.mode }), none);
	r.add('GET', '/__admin/stats', () => ok(d.stats()), none);
	r.add('POST', '/__admin/stats/reset', () => (d.resetStats(), ok()), none);
	r.add(
		'GET',
		'/__admin/requests',
		(ctx) => {
			const since = ctx.query.int('since') ?? 0;
			const path = ctx.query.str('path');
			return ok(d.requests().filter((e) => e.seq > since && (!path || e.path.startsWith(path))));
		},
		none,
	);
	r.add(
		'GET',
		'/__admin/contract',
		() => ok(d.contract ? { checking: true, ...d.contract.summary() } : { checking: false }),
		none,
	);
	r.add('POST', '/__admin/contract/reset', () => (d.contract?.reset(), ok()), none);
	r.add('GET', '/__admin/faults', () => ok(d.faults.list()), none);
	r.add(
		'POST',
		'/__admin/faults',
		(ctx) => {
			const rules = Array.isArray(ctx.body) ? ctx.body : [ctx.body];
			try {
				return ok(rules.map((rule) => d.faults.add(rule as FaultRule)));
			} catch (e) {
				throw new ApiError(400, e instanceof Error ? e.message : String(e));
			}
		},
		none,
	);
	r.add('DELETE', '/__admin/faults', () => (d.faults.clear(), ok()), none);
	// The requests `hold` rules keep waiting go on: { released: n }.
	r.add('POST', '/__admin/faults/release', () => ok({ released: d.faults.release() }), none);
	r.add('POST', '/__admin/tokens/expire', () => ok({ expired: d.auth.expireAll() }), none);
	r.add('POST', '/__admin/tokens/revoke', () => ok({ revoked: d.auth.revokeAllRefresh() }), none);
	// Moves the time tokens and codes expire by (their own clock, not the records'): { advanceMs: number }.
	r.add(
		'POST',
		'/__admin/tokens/clock',
		(ctx) => {
			const advanceMs = Number(body(ctx).advanceMs);
			if (!Number.isFinite(advanceMs)) throw new ApiError(400, 'advanceMs must be a number');
			d.auth.clock.set({ advanceMs });
			return ok({ now: new Date(d.auth.clock.now()).toISOString() });
		},
		none,
	);
	r.add(
		'POST',
		'/__admin/tokens/issue',
		(ctx) =>
			ok(
				d.auth.issueTokenResponse(
					d.auth.identity(body(ctx).username as string | undefined),
					'read write',
				),
			),
		none,
	);
	r.add(
		'POST',
		'/__admin/config',
		(ctx) => {
			const b = body(ctx);
			if (typeof b.tokenTtl === 'number') d.env.config.tokenTtl = b.tokenTtl;
			if (typeof b.mode === 'string' && ['v1', 'v1-legacy', 'v2'].includes(b.mode))
				d.env.config.mode = b.mode as AuthMode;
			return ok({ tokenTtl: d.env.config.tokenTtl, mode: d.env.config.mode });
		},
		none,
	);
	r.add(
		'POST',
		'/__admin/events',
		async (ctx) => {
			const b = body(ctx);
			const eventType = String(b.eventType);
			if (!(EVENT_TYPES as readonly string[]).includes(eventType))
				throw new ApiError(400, `eventType must be one of ${EVENT_TYPES.join(', ')}`);
			const tenant = d.env.store.tenant(tenantId(b.tenantId));
			const data = (i: number) =>
				b.data ?? {
					id: Math.floor(Math.random() * 1e6),
					seq: i,
					note: 'emitted by the sandbox admin endpoint',
				};
			const count = Number(b.count ?? 1);
			if (!Number.isInteger(count) || count < 1)
				throw new ApiError(400, 'count must be a positive integer');
			if (count > 1) {
				// Many events (benchmarks): at most `concurrency` delivered at a time; a summary, not every delivery.
				const ids = new Set(
					await d.hooks.emitMany(tenant, eventType, count, Number(b.concurrency ?? 10) || 10, data),
				);
				const statuses: Record<string, number> = {};
				for (const x of d.hooks.deliveries)
					if (ids.has(x.eventId)) statuses[x.status] = (statuses[x.status] ?? 0) + 1;
				return ok({ emitted: count, statuses });
			}
			const eventId = d.hooks.emit(tenant, eventType, data(0));
			await d.hooks.idle();
			return ok({ eventId, deliveries: d.hooks.deliveries.filter((x) => x.eventId === eventId) });
		},
		none,
	);
	r.add('GET', '/__admin/deliveries', () => ok(d.hooks.deliveries), none);
	const clockView = () =>
		ok({ now: new Date(d.env.store.clock.now()).toISOString(), frozen: d.env.store.clock.frozen });
	r.add('GET', '/__admin/clock', clockView, none);
	// Moves the sandbox's time (tests of polling triggers): { at?: ISO time, freeze?: boolean, advanceMs?: number }.
	r.add(
		'POST',
		'/__admin/clock',
		(ctx) => {
			const b = body(ctx);
			const at = b.at === undefined ? undefined : Date.parse(String(b.at));
			if (at !== undefined && Number.isNaN(at))
				throw new ApiError(400, 'at must be an ISO 8601 time');
			if (b.advanceMs !== undefined && !Number.isFinite(Number(b.advanceMs)))
				throw new ApiError(400, 'advanceMs must be a number');
			d.env.store.clock.set({
				at,
				freeze: typeof b.freeze === 'boolean' ? b.freeze : undefined,
				advanceMs: b.advanceMs === undefined ? undefined : Number(b.advanceMs),
			});
			return clockView();
		},
		none,
	);
	r.add('POST', '/__admin/reset', () => (d.reset(), ok()), none);
	r.add(
		'POST',
		'/__admin/restart',
		(ctx) => {
			const ms = Number(body(ctx).downMs ?? 500);
			setTimeout(() => void d.restart(ms), 50);
			return ok({ restarting: true, downMs: ms });
		},
		none,
	);
	r.add(
		'GET',
		'/__admin/state/:tenantId/:collection',
		(ctx) => ok(collection(d.env, ctx).values()),
		none,
	);
	r.add(
		'GET',
		'/__admin/state/:tenantId/:collection/:id',
		(ctx) => {
			const c = collection(d.env, ctx);
			const raw = ctx.params.id;
			const doc = c.get(/^\d+$/.test(raw) ? Number(raw) : raw) ?? c.get(raw);
			if (!doc) throw new ApiError(404, `No ${ctx.params.collection} ${raw}`);
			return ok(doc);
		},
		none,
	);
	// What the platform changes on its own, which no documented endpoint does (a payrun processed or paid,
	// an email template edited): the fields of the body are set; `stamp` names fields set to the sandbox's time.
	r.add(
		'PATCH',
		'/__admin/state/:tenantId/:collection/:id',
		(ctx) => {
			const c = collection(d.env, ctx);
			const raw = ctx.params.id;
			const doc = c.get(/^\d+$/.test(raw) ? Number(raw) : raw) ?? c.get(raw);
			if (!doc) throw new ApiError(404, `No ${ctx.params.collection} ${raw}`);
			const { stamp, ...fields } = body(ctx);
			const now = new Date(d.env.store.clock.now()).toISOString();
			Object.assign(
				doc,
				fields,
				Object.fromEntries((Array.isArray(stamp) ? stamp : []).map((f) => [String(f), now])),
			);
			(c as { touch?: () => void }).touch?.();
			return ok(doc);
		},
		none,
	);
	r.add(
		'POST',
		'/__admin/payruns/:tenantId/:id/:step',
		(ctx) => {
			const tenant = d.env.store.tenant(Number(ctx.params.tenantId));
			const payrun = tenant.payruns.get(ctx.params.id);
			if (!payrun) throw new ApiError(404, `No payrun ${ctx.params.id}`);
			const step = ctx.params.step;
			if (step !== 'process' && step !== 'pay')
				throw new ApiError(400, 'step must be process or pay');
			return ok(advancePayrun(d.env, tenant, payrun, step));
		},
		none,
	);
	r.add(
		'POST',
		'/__admin/seed',
		(ctx) => {
			const b = body(ctx);
			const tenant = d.env.store.tenant(tenantId(b.tenantId));
			const kind = String(b.kind);
			const count = Number(b.count ?? 0);
			for (const m of MODULES) {
				const gen = m.bulk?.[kind];
				if (gen) return ok({ kind, added: gen(d.env, tenant, count, b) });
			}
			throw new ApiError(400, `No bulk generator for ${kind}`);
		},
		none,
	);
}

function collection(
	env: Env,
	ctx: Ctx<unknown>,
): { values(): Doc[]; get(id: string | number): Doc | undefined } {
	const tenant = env.store.tenant(Number(ctx.params.tenantId));
	const name = ctx.params.collection;
	if (name === 'records') {
		const tableId = ctx.query.str('tableId');
		const c = tableId ? tenant.records.get(tableId) : undefined;
		if (!c) throw new ApiError(404, 'records need ?tableId= of an existing table');
		return c as never;
	}
	if (name === 'crmUsers')
		return { values: () => tenant.crmUsers, get: (id) => tenant.crmUsers.find((u) => u.id === id) };
	if (!isCollectionName(name)) throw new ApiError(404, `No collection ${name}`);
	return tenant[name] as never;
}
