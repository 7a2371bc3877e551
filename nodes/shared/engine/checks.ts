/**
 * What happens around a failure when the node stops on errors (no Continue On Fail):
 *
 * - Before the first request, every item's input is checked: its parameters read and mapped
 *   to the wire (collectRequest), and the operation's own `execute` run on a copy of the
 *   request with the platform out of reach, up to its first request. Bad input in any item
 *   stops the run with nothing written. An operation that asks the platform before it can
 *   check (a table's columns, say) is checked as far as it gets without it; the rest of its
 *   checks run at the item's turn.
 * - When the platform refuses an item, items sent at the same time may have been written: the
 *   node's error names every record the run wrote (item and ID), so nothing exists unseen.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Settled } from '../concurrency';
import { CUSTOM_CALL_OPERATION } from './custom-call';
import type { OpContext, Operation, Output } from './model';

/** Thrown by the platform's stand-in during the checks: the rest of `execute` needs the platform. */
class NeedsPlatform extends Error {}

const offline = async (): Promise<never> =>
	await Promise.reject(new NeedsPlatform('checked at the item’s turn'));

/** Runs an item's local checks (its declared `check`); throws the item's error for bad input. */
export async function checkInput(op: Operation, ctx: OpContext): Promise<void> {
	if (op.check) await op.check(ctx.fromFields(), ctx);
	if (!op.execute) return;
	const dry: OpContext = {
		...ctx,
		fromFields: () => structuredClone(ctx.fromFields()),
		send: offline,
		request: offline,
		paginate: offline,
	};
	const failure = await Promise.resolve()
		.then(async () => await op.execute?.(dry))
		.then(
			() => undefined,
			(error: unknown) => error,
		);
	if (failure === undefined || failure instanceof NeedsPlatform) return;
	throw failure instanceof NodeOperationError || failure instanceof NodeApiError
		? failure
		: new NodeOperationError(ctx.fn.getNode(), failure as Error, { itemIndex: ctx.itemIndex });
}

/** Whether an item of this operation writes to the platform (not a read, a list or a GET custom call). */
export function writes(op: Operation, ctx: OpContext): boolean {
	if (op === CUSTOM_CALL_OPERATION) return ctx.param<string>('customMethod', 'GET') !== 'GET';
	return op.method !== 'GET' && !op.paginate && op.readOnly !== true;
}

/** The ID an output item names (`id`, `_id`, a people user's `userId`), if any. */
function idOf(json: unknown): string | undefined {
	if (!json || typeof json !== 'object') return undefined;
	const o = json as IDataObject;
	const id = o.id ?? o._id ?? o.Id ?? o.userId;
	return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : undefined;
}

/**
 * "Before it failed, the run wrote: item 0 (ID 12), item 3 (ID 15)." for the items that wrote
 * and succeeded; undefined when none did.
 */
export function writtenText(
	results: Array<Settled<Output> | undefined>,
	wrote: boolean[],
): string | undefined {
	const parts: string[] = [];
	results.forEach((r, i) => {
		if (!r?.ok || !wrote[i]) return;
		const list = r.value === undefined ? [] : Array.isArray(r.value) ? r.value : [r.value];
		const ids = list.map(idOf).filter((id): id is string => id !== undefined);
		parts.push(ids.length ? `item ${i} (ID ${ids.join(', ')})` : `item ${i}`);
	});
	if (!parts.length) return undefined;
	return `These items were written to the platform before the run stopped and exist there now: ${parts.join(', ')}. Running the workflow again would write them again: start it from the failed item, or use Continue On Fail to see each item's outcome.`;
}
