/** An answer as output items when the operation shapes nothing itself: arrays split, objects kept, empty → `{ success: true }`. */
import type { IDataObject } from 'n8n-workflow';

import type { Output } from './model';

export function defaultOutput(answer: unknown): Output {
	if (answer === undefined || answer === null || answer === '') return { success: true };
	if (Array.isArray(answer)) return answer.map((a) => (a !== null && typeof a === 'object' ? (a as IDataObject) : { value: a as string }));
	if (typeof answer === 'object') return answer as IDataObject;
	return { value: answer as string };
}
