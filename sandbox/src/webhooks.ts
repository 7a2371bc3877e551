/**
 * Webhook registrations (register/list/delete) and real delivery: every event
 * is POSTed as JSON to each live registration of its type in its tenant.
 * The platform's payload shape is not documented; the sandbox sends
 * { eventType, eventId, tenantId, occurredAt, data }.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';

import { badRequest, json, notFound, objectBody, type Router } from './http';
import type { Session } from './auth';
import type { Doc, Store, Tenant } from './state';
import { validate } from './validate';

export const EVENT_TYPES = [
	'CREATE_PRODUCTS',
	'CREATE_CONTACT',
	'CREATE_BILL',
	'UPDATE_BILL',
	'DELETE_BILL',
	'CREATE_INVOICE',
	'UPDATE_INVOICE',
	'DELETE_INVOICE',
	'CREATE_DEBITNOTE',
	'UPDATE_DEBITNOTE',
	'DELETE_DEBITNOTE',
	'CREATE_CREDITNOTE',
	'UPDATE_CREDITNOTE',
	'DELETE_CREDITNOTE',
	'CREATE_CRM_CONTACT',
	'UPDATE_CRM_CONTACT',
	'DELETE_CRM_CONTACT',
	'CREATE_CRM_DEAL',
	'UPDATE_CRM_DEAL',
	'DELETE_CRM_DEAL',
	'STOCK_IN',
	'STOCK_OUT',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface Delivery {
	hookId: number;
	eventType: string;
	eventId: string;
	url: string;
	status: number | 'error';
	error?: string;
	at: string;
}

const publicHook = (h: Doc) => ({
	hookId: h.hookId,
	eventType: h.eventType,
	webhookUrl: h.webhookUrl,
	deleted: h.deleted,
});

export class Webhooks {
	readonly deliveries: Delivery[] = [];
	/** Set when the sandbox checks its traffic against the contract: sees every event payload it sends. */
	checkEvent?: (payload: unknown) => void;
	private pending = new Set<Promise<void>>();

	constructor(
		private readonly store: Store,
		private readonly clientId: () => { id: string; secret: string },
	) {}

	/** Sends one event to every live registration of its type (in the background); returns its id. */
	emit(tenant: Tenant, eventType: string, data: unknown): string {
		return this.send(tenant, eventType, data).eventId;
	}

	/**
	 * Emits `count` events of one type (`data(i)` for the i-th), with at most `concurrency`
	 * events being delivered at a time; resolves with their ids once every delivery was tried.
	 */
	async emitMany(
		tenant: Tenant,
		eventType: string,
		count: number,
		concurrency: number,
		data: (i: number) => unknown,
	): Promise<string[]> {
		const ids: string[] = [];
		let next = 0;
		const worker = async () => {
			while (next < count) {
				const i = next++;
				const sent = this.send(tenant, eventType, data(i));
				ids[i] = sent.eventId;
				await sent.done;
			}
		};
		await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
		return ids;
	}

	private send(
		tenant: Tenant,
		eventType: string,
		data: unknown,
	): { eventId: string; done: Promise<unknown> } {
		const eventId = randomUUID();
		const payload = {
			eventType,
			eventId,
			tenantId: tenant.id,
			occurredAt: new Date().toISOString(),
			data,
		};
		this.checkEvent?.(payload);
		const body = JSON.stringify(payload);
		const all: Promise<void>[] = [];
		for (const hook of tenant.webhooks.values()) {
			if (hook.deleted || hook.eventType !== eventType) continue;
			const p = this.deliver(hook, eventType, eventId, body);
			this.pending.add(p);
			void p.finally(() => this.pending.delete(p));
			all.push(p);
		}
		return { eventId, done: Promise.allSettled(all) };
	}

	private async deliver(
		hook: Doc,
		eventType: string,
		eventId: string,
		body: string,
	): Promise<void> {
		const url = String(hook.webhookUrl);
		const entry: Delivery = {
			hookId: Number(hook.hookId),
			eventType,
			eventId,
			url,
			status: 'error',
			at: new Date().toISOString(),
		};
		try {
			const res = await request(url, {
				method: 'POST',
				body,
				headers: {
					'content-type': 'application/json',
					'user-agent': 'business-platform-sandbox-webhooks',
				},
				headersTimeout: 10_000,
				bodyTimeout: 10_000,
			});
			await res.body.dump();
			entry.status = res.statusCode;
		} catch (e) {
			entry.error = e instanceof Error ? e.message : String(e);
		}
		this.deliveries.push(entry);
		if (this.deliveries.length > 5000) this.deliveries.splice(0, this.deliveries.length - 5000);
	}

	/** Waits until every delivery started so far has finished. */
	async idle(): Promise<void> {
		while (this.pending.size) await Promise.allSettled([...this.pending]);
	}

	register(router: Router<Session>): void {
		router.add('POST', '/v1/webhooks/register', (ctx) => {
			const body = validate(
				objectBody(ctx),
				{
					clientId: 'string',
					clientSecret: 'string',
					accessToken: 'string',
					refreshToken: 'string',
					eventType: 'string',
					webhookUrl: 'string',
				},
				['clientId', 'clientSecret', 'accessToken', 'refreshToken', 'eventType', 'webhookUrl'],
			);
			if (!(EVENT_TYPES as readonly string[]).includes(body.eventType as string)) {
				throw badRequest(`Unknown eventType ${String(body.eventType)}`, [
					{ field: 'eventType', error: `must be one of ${EVENT_TYPES.join(', ')}` },
				]);
			}
			try {
				const u = new URL(body.webhookUrl as string);
				if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
			} catch {
				throw badRequest('webhookUrl must be an http(s) URL', [
					{ field: 'webhookUrl', error: 'must be an absolute http(s) URL' },
				]);
			}
			const client = this.clientId();
			if (body.clientId !== client.id || body.clientSecret !== client.secret) {
				throw badRequest('clientId or clientSecret is not valid', [
					{ field: 'clientId', error: 'does not match a registered application' },
				]);
			}
			const tenant = this.store.tenant(ctx.session.tenantId);
			const hookId = this.store.nextInt('hook');
			const hook = tenant.webhooks.set(hookId, {
				hookId,
				eventType: body.eventType,
				webhookUrl: body.webhookUrl,
				deleted: false,
				createdAt: new Date().toISOString(),
				createdBy: ctx.session.userId,
			});
			return json(200, publicHook(hook));
		});
		router.add('GET', '/v1/webhooks', (ctx) => {
			const tenant = this.store.tenant(ctx.session.tenantId);
			return json(
				200,
				tenant.webhooks
					.values()
					.filter((h) => !h.deleted)
					.map(publicHook),
			);
		});
		router.add('DELETE', '/v1/webhooks/delete/:id', (ctx) => {
			const tenant = this.store.tenant(ctx.session.tenantId);
			const id = ctx.params.id;
			const hook = /^\d+$/.test(id) ? tenant.webhooks.get(Number(id)) : undefined;
			if (!hook || hook.deleted) throw notFound('Webhook', id);
			hook.deleted = true;
			tenant.webhooks.touch();
			return json(200, publicHook(hook));
		});
	}
}
