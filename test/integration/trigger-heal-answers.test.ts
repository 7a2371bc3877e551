/**
 * The Trigger's register and removal requests when the platform answers them off the contract,
 * through n8n-core's contexts against the sandbox (nodes/BusinessPlatformSalesTrigger/webhook-api.ts):
 * a 2xx that is not the registration record is an unknown outcome the list settles, never taken
 * as done. Each case failed on ade7c43; every assertion reads the sandbox, what the node logged,
 * returned or threw.
 */
import { allowOffContract } from '../helpers/contract';
import {
	drop,
	emitAndDeliver,
	hook,
	nodeData,
	poll,
	publish,
	useHealFile,
	warnings,
} from '../helpers/heal';
import { live } from '../helpers/registrations';

const { tuning, ctx, receiver, at } = useHealFile();
tuning.retry.attempts = 1; // one request per answer: the answers, not the retries, are under test
tuning.retryClock.sleep = async () => undefined;

/** 200 answers that are not the registration record the contract gives for a register or a removal. */
const JUNK = [
	{ body: '{"id": 99}', what: '{ id }' },
	{ body: JSON.stringify({ data: { hookId: 99 } }), what: 'a data envelope' },
	{ body: '<html><body>OK</body></html>', contentType: 'text/html', what: 'a page of HTML' },
];

describe('a register or a removal answered off the contract is an unknown outcome the list settles', () => {
	it.each(JUNK)(
		"a register answered with $what: not carried out → no report, a warning, registered at the next poll; carried out → reported with the platform's hookId",
		async (junk) => {
			const sb = ctx.sb;
			allowOffContract(sb, /webhooks\/register/, 'junk answers on purpose');
			const p = await publish(sb, at(), ['CREATE_BILL']);
			await drop(sb, p, 'CREATE_BILL');
			const rule = { kind: 'body', method: 'POST', path: '/v1/webhooks/register', count: 1 };
			sb.faults.add({ ...rule, ...junk } as never);
			expect(await poll(p)).toEqual([]);
			expect(live(sb, p.base)).toHaveLength(0);
			expect(warnings().map((l) => l.message)).toEqual([
				expect.stringMatching(/CREATE_BILL.*not the registration record.*not registered/),
			]);
			sb.faults.add({ ...rule, ...junk, phase: 'after' } as never);
			const items = await poll(p);
			const [row] = live(sb, p.base);
			expect(items).toEqual([
				expect.objectContaining({ eventType: 'CREATE_BILL', hookId: row.hookId }),
			]);
			expect(String(row.webhookUrl)).toContain(`secret=${nodeData(p).secrets!.CREATE_BILL}`);
			expect(await emitAndDeliver(sb, p, receiver.rx.calls, 'CREATE_BILL')).toHaveLength(1);
			await hook(p, 'delete');
		},
	);

	it("an unpublish whose removal is answered with a page of HTML: not carried out → n8n's delete fails naming the registration (its next attempt removes it); carried out → the list says it is gone", async () => {
		const sb = ctx.sb;
		allowOffContract(sb, /webhooks\/delete/, 'junk answers on purpose');
		const html = { kind: 'body', method: 'DELETE', path: '/v1/webhooks/delete/', count: 1 };
		const junk = { body: '<html>OK</html>', contentType: 'text/html' };
		const p = await publish(sb, at(), ['UPDATE_BILL']);
		const secret = nodeData(p).secrets!.UPDATE_BILL;
		const [row] = live(sb, p.base);
		sb.faults.add({ ...html, ...junk } as never);
		const error = await hook(p, 'delete').then(
			() => undefined,
			(e: Error & { description?: string }) => `${e.message} ${e.description}`,
		);
		expect(error).toMatch(new RegExp(`${String(row.hookId)}: .*page of HTML.*still holds it`));
		expect(error).not.toContain(secret);
		expect(live(sb, p.base)).toHaveLength(1);
		await hook(p, 'delete'); // n8n 2.41 tries a failed teardown again (3 attempts)
		expect(live(sb, p.base)).toHaveLength(0);

		const q = await publish(sb, at(), ['UPDATE_BILL']);
		sb.faults.add({ ...html, ...junk, phase: 'after' } as never);
		await hook(q, 'delete');
		expect(live(sb, q.base)).toHaveLength(0);
	});
});
