/**
 * What the webhook Trigger keeps in the node's static data, and how it is read. n8n keeps it,
 * saves it after an activation and with the executions a poll starts, never in test mode:
 *   hookIds:  { <eventType>: <hookId> }  what to deregister later
 *   secrets:  { <eventType>: <secret> }  what an incoming call must carry
 *   url:      the node's webhook URL      where the registrations point
 *   restored: { <eventType>: <when> }    found gone at activation although it had been
 *                                        registered (create registers it); only while the
 *                                        activation runs: at its end the marks go to the heal
 *                                        (polling/turns.ts setLive), which reports each once
 *   seenLive: { <eventType>: <when> }    when the heal last saw it live
 * The heal registers with what the activation registered in this process (turns.ts), not with
 * the secrets its poll sees here: under n8n's durable cursors a poll's static data is a copy.
 * The keys are event types, which come from outside (a saved workflow, an expression, the query
 * of a delivery): only a record's own keys count, never one every object inherits (toString,
 * constructor, __proto__).
 */
import type { IDataObject } from 'n8n-workflow';

import type { HookId } from './webhook-api';

export interface TriggerState {
	hookIds?: Record<string, HookId>;
	secrets?: Record<string, string>;
	url?: string;
	restored?: Record<string, string>;
	/** When the heal last saw each event's registration live (heal.ts). */
	seenLive?: Record<string, string>;
}

/** The node's static data object: what the Trigger writes there n8n saves. */
export const state = (ctx: { getWorkflowStaticData(type: string): IDataObject }) =>
	ctx.getWorkflowStaticData('node') as TriggerState & IDataObject;

/** A value stored under `key` in the object itself (never one it inherits, such as toString or constructor). */
export function ownValue(record: unknown, key: string): unknown {
	if (!record || typeof record !== 'object' || !Object.prototype.hasOwnProperty.call(record, key))
		return undefined;
	return (record as Record<string, unknown>)[key];
}

/** `ownValue` when it is a non-empty text (a stored secret or time), else undefined. */
export function ownText(record: unknown, key: string): string | undefined {
	const value = ownValue(record, key);
	return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The non-empty texts a record holds under its own keys. */
export function ownTexts(record: unknown): Map<string, string> {
	const texts = new Map<string, string>();
	if (!record || typeof record !== 'object') return texts;
	for (const key of Object.keys(record)) {
		const value = ownText(record, key);
		if (value !== undefined) texts.set(key, value);
	}
	return texts;
}

/** The static data as the heal reads it, in one call: the object itself (written when something changed) and the marks it compares. */
export interface Stored {
	data: TriggerState & IDataObject;
	/** When each event's registration was last seen live. */
	seenLive: ReadonlyMap<string, string>;
}

export function readStored(ctx: { getWorkflowStaticData(type: string): IDataObject }): Stored {
	const data = state(ctx);
	return { data, seenLive: ownTexts(data.seenLive) };
}
