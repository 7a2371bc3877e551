/**
 * What the sandbox holds and was asked about the Trigger's webhook registrations, for the
 * trigger tests (test/integration/trigger*.test.ts).
 */
import type { Sandbox } from './sandbox';

/** Live registrations on the sandbox pointing at a node's URL (`base`, without query). */
export const live = (sb: Sandbox, base: string) =>
	sb.store
		.tenant(1)
		.webhooks.values()
		.filter((w) => !w.deleted && String(w.webhookUrl).split('?')[0] === base);

/** The register requests the sandbox got after request `sinceSeq`. */
export const registerCalls = (sb: Sandbox, sinceSeq: number) =>
	sb
		.requests()
		.filter((r) => r.seq > sinceSeq && r.method === 'POST' && r.path === '/v1/webhooks/register');

/** The sequence number of the sandbox's last request. */
export const lastSeq = (sb: Sandbox) => sb.requests().at(-1)?.seq ?? 0;
