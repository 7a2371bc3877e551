/** Payrun → Revert Journal Entry: POST /v1/people-pay-run/payruns/revert-je. Reverse the posted journal entry of a payrun in the accounting books. Changes the books; never retried automatically. */

import type { IDataObject } from 'n8n-workflow';

import type { OpContext, Operation } from '../../../shared/engine/model';
import { answerText, requireMdy } from '../common';
import { BASE, JOURNAL_ENTRY_REQUEST, journalEntryPayrunField } from './common';
import { toStringId } from '../../../shared/field-values';
import { echo } from '../../../shared/text-readers';

/** Reads a payrun from the list (there is no endpoint for one payrun). */
async function findPayrun(ctx: OpContext, id: string): Promise<IDataObject> {
	const all = await ctx.paginate(
		{
			method: 'GET',
			path: BASE,
			regional: true,
			qs: { sortField: 'createdAt', sortOrder: 'desc' },
		},
		'payruns',
	);
	const found = all.find((p) => String(p._id) === id);
	if (!found)
		throw ctx.fail(`Payrun ${id} was not found`, 'Pick the payrun from the list, or check its ID.');
	return found;
}

export const revertJournalEntryPayrun: Operation = {
	value: 'revertJournalEntry',
	name: 'Revert Journal Entry',
	action: 'Revert the journal entry of a payrun',
	description:
		'Reverse the posted journal entry of a payrun in the accounting books. Changes the books; never retried automatically.',
	...JOURNAL_ENTRY_REQUEST,
	path: `${BASE}/revert-je`,
	fields: [
		journalEntryPayrunField('Reverting writes a reversing journal entry'),
		{
			property: {
				displayName: 'Journal Entry ID',
				name: 'jeId',
				type: 'string',
				default: '',
				description:
					'The posted journal entry to revert (the payrun’s jeId). Leave empty to use the payrun’s posted entry.',
			},
		},
		{
			property: {
				displayName: 'Revert Date',
				name: 'jeRevertDate',
				type: 'dateTime',
				default: '',
				required: true,
				description: 'Date of the reversing entry; not before the posting date',
			},
		},
	],
	why: 'Without a journal entry ID it reads the payrun’s posted entry from the payrun list (there is no endpoint for one payrun) and refuses a payrun with none; the text answer becomes an item naming what was reverted.',
	// What the item gives, checked once and sent as checked; a missing jeId is the payrun's, read at its turn.
	check: (req, ctx) => {
		const payrunId = toStringId(ctx.param('payrunId'), 'Payrun', ctx);
		const jeRevertDate = requireMdy(ctx.param('jeRevertDate', ''), 'Revert Date', ctx);
		const text = String(ctx.param('jeId', '')).trim();
		if (text && !/^\d+$/.test(text))
			throw ctx.fail(
				`Journal Entry ID must be a whole number, got ${echo(text, 40)}`,
				'Give the payrun’s jeId, or leave the field empty to use it.',
			);
		// Past 2^53 a number is not the ID written: it would be sent rounded.
		if (text && !Number.isSafeInteger(Number(text)))
			throw ctx.fail(
				`Journal Entry ID ${echo(text, 40)} is too large to send exactly`,
				'The platform’s journal entry IDs are at most 9007199254740991; check the ID, or leave the field empty to use the payrun’s.',
			);
		req.body.revertPayrun = [{ jeId: text ? Number(text) : undefined, jeRevertDate, payrunId }];
	},
	execute: async (ctx, req) => {
		const [entry] = req.body.revertPayrun as IDataObject[];
		if (entry.jeId === undefined) {
			const payrunId = String(entry.payrunId);
			const payrun = await findPayrun(ctx, payrunId);
			if (
				payrun.jeStatus !== 'POSTED' ||
				!/^\d+$/.test(String(payrun.jeId ?? '')) ||
				!Number.isSafeInteger(Number(payrun.jeId))
			) {
				throw ctx.fail(
					`Payrun ${payrunId} has no posted journal entry to revert`,
					`Its journal status is "${String(payrun.jeStatus || 'none')}". Post a journal entry first.`,
				);
			}
			entry.jeId = Number(payrun.jeId);
		}
		const answer = await ctx.send(req);
		return {
			payrunId: entry.payrunId,
			jeId: entry.jeId,
			jeRevertDate: entry.jeRevertDate,
			reverted: true,
			message: answerText(answer),
		};
	},
};
