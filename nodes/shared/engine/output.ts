/**
 * The engine's helpers for an operation's answer: the default (arrays split, objects kept,
 * empty → `{ success: true }`) and the Delete whose ID ends the path.
 */
import type { IDataObject } from 'n8n-workflow';

import { idFromPath } from '../field-values';
import type { OpContext, Output } from './model';

export function defaultOutput(answer: unknown): Output {
	if (answer === undefined || answer === null || answer === '') return { success: true };
	if (Array.isArray(answer))
		return answer.map((a) =>
			a !== null && typeof a === 'object' ? (a as IDataObject) : { value: a as string },
		);
	if (typeof answer === 'object') return answer as IDataObject;
	return { value: answer as string };
}

/** A Delete whose ID ends the path, as an operation's `execute` and `why` (spread it: `...deleteByPath`): the output names the ID, `{ deleted: true, id }`. */
export const deleteByPath = {
	why: 'The platform answers a delete with nothing to show: the output names the deleted ID.',
	execute: async (ctx: OpContext): Promise<IDataObject> => {
		const req = ctx.fromFields();
		await ctx.send(req);
		return { deleted: true, id: idFromPath(req.path) };
	},
};
