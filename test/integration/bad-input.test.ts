import { RETRY } from '../../nodes/shared/transport';
import { createHarness } from '../harness/n8n';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();
RETRY.baseDelayMs = 20;

it('probe', async () => {
	const h = createHarness(ctx.sb, ctx.sb.issueTokens());
	let t0 = Date.now();
	const items = Array.from({ length: 100 }, (_, i) => ({ json: { name: `Probe ${i}` } }));
	const r = await h.run('businessPlatformSales', { resource: 'contact', operation: 'create', name: '={{ $json.name }}', type: 'person' }, items);
	console.log('100 creates', Date.now() - t0, r.json.length, r.error?.message);
	const bad = createHarness(ctx.sb, ctx.sb.issueTokens(), { baseUrl: 'http://127.0.0.1:1' });
	t0 = Date.now();
	const r2 = await bad.run('businessPlatformSales', { resource: 'contact', operation: 'create', name: 'x', type: 'person' });
	console.log('refused', Date.now() - t0, r2.error?.message, r2.error?.description);
	const r3 = await bad.run('businessPlatformSales', { resource: 'contact', operation: 'getAll', returnAll: false, limit: 2 });
	console.log('refused get', r3.error?.message, r3.error?.description);
	t0 = Date.now();
	const big = 'x'.repeat(25 * 1024 * 1024);
	const r4 = await h.run('businessPlatformSales', { resource: 'contact', operation: 'create', name: 'big', type: 'person', additionalFields: { note: big } });
	console.log('big', Date.now() - t0, r4.error?.message, r4.error?.description);
	const r5 = await h.run('businessPlatformSales', { resource: 'activity', operation: 'create', name: 'big', activityType: 'call', start: '2026-01-01T10:00:00Z', end: '2026-01-01T11:00:00Z', additionalFields: { notes: big } });
	console.log('big activity', Date.now() - t0, r5.error?.message, r5.error?.description);
	console.log(ctx.sb.requests().slice(-3).map((x) => [x.method, x.path, x.status, x.fault]));
});
