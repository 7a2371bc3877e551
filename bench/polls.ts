/**
 * The Sales Trigger's polling events when nothing changed (issue 56): what one poll costs, in
 * requests and CPU, for 10^4 contacts (read newest first: page 1, and the last page that checks
 * the platform's order) and 10^3 deals (read whole, every minute), each against the floor measured
 * in the same run (bench/poll-measure.ts: the pages a poller must read to see that nothing
 * changed, read and parsed with undici); and what the trigger keeps in static data per 10^4
 * records when it watches fields. Each measurement runs in a fresh process (bench/measure.ts).
 */
import { startSandboxProcess } from '../testbed/sandbox-process';
import { admin, baseOf, measure, say, sized, type Base } from './common';
import { fmt, row, type BenchRow, type InfoRow, type Section } from './rows';

const CONTACTS = sized(10_000, 300);
const DEALS = sized(1000, 150);
const POLLS = sized(20, 2);

/** CPU per poll may be this many times the floor's (the pack reads what the floor reads, and compares it). */
const CPU_TARGET = 3;

interface Measured {
	cpuMsPerPoll: number;
	msPerPoll: number;
	requestsPerPoll: number;
	firstCpuMs?: number;
	staticDataBytes?: number;
	memoryBytes?: number;
	records?: number;
}

async function listRows(
	base: Base,
	list: 'contacts' | 'deals',
	watchFields: string[],
): Promise<{ row: BenchRow; info: InfoRow[]; raw: Record<string, unknown> }> {
	const count = (await admin<unknown[]>(base.baseUrl, 'GET', `/state/1/${list}`)).length;
	say(`  polls: ${fmt(count)} ${list}, a poll without a change (pack, the floor)…`);
	const args = { ...base, list, watchFields, polls: POLLS };
	const pack = (await measure('packPoll', args)) as unknown as Measured;
	const floor = (await measure('rawPoll', args)) as unknown as Measured;
	const perTenThousand = ((pack.memoryBytes ?? 0) * 10_000) / Math.max(1, pack.records ?? 1);
	return {
		row: row({
			id: `poll-${list}-no-change`,
			scenario: `A poll without a change, ${fmt(count)} ${list} (watching ${watchFields.join(', ')}): CPU per poll, pack ÷ the pages read by hand`,
			pack: pack.cpuMsPerPoll,
			baseline: floor.cpuMsPerPoll,
			unit: 'ms',
			better: 'lower',
			target: CPU_TARGET,
			baselineLabel: `undici reading the ${list === 'contacts' ? 'first page' : 'pages'} a poller needs (${fmt(floor.requestsPerPoll, 1)} a poll)`,
			note: `${fmt(pack.requestsPerPoll, 1)} requests per poll (floor ${fmt(floor.requestsPerPoll, 1)}); ${fmt(pack.msPerPoll, 1)} ms per poll (floor ${fmt(floor.msPerPoll, 1)} ms); the first poll, which remembers every ${list === 'contacts' ? 'contact' : 'deal'}, ${fmt(pack.firstCpuMs ?? 0)} ms of CPU`,
		}),
		info: [
			{
				id: `poll-${list}-static-data`,
				scenario: `What the trigger keeps in static data per 10^4 ${list}, watching ${watchFields.join(', ')}`,
				value: perTenThousand,
				unit: 'B',
				text: `${fmt(perTenThousand)} bytes per 10^4 ${list} (the memory of ${fmt(pack.records ?? 0)} ${list}: ${fmt(pack.memoryBytes ?? 0)} bytes; the node's static data in all ${fmt(pack.staticDataBytes ?? 0)} bytes); bound: 2,000,000 characters`,
			},
		],
		raw: { [list]: { pack, floor } },
	};
}

/** The section: one sandbox process with 10^4 contacts and 10^3 deals. */
export async function pollsSection(): Promise<Section> {
	say('Polling events of the Sales Trigger (a poll without a change)…');
	const { ready, stop } = await startSandboxProcess(['--rows', '5', '--max-page-size', '500']);
	try {
		const base = await baseOf(ready);
		await admin(ready.baseUrl, 'POST', '/seed', { kind: 'contacts', count: CONTACTS });
		await admin(ready.baseUrl, 'POST', '/seed', { kind: 'deals', count: DEALS });
		const contacts = await listRows(base, 'contacts', ['c_field.tier']);
		const deals = await listRows(base, 'deals', ['stage_id', 'amount', 'owner_id', 'status']);
		return {
			title: 'Polling events of the Sales Trigger (n8n-core harness, sandbox in its own process)',
			rows: [contacts.row, deals.row],
			info: [...contacts.info, ...deals.info],
			raw: { ...contacts.raw, ...deals.raw },
		};
	} finally {
		await stop();
	}
}
