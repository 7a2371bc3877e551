/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * A scripted, OpenAI-compatible chat-completions server for agent tests: no model, no
 * network, on 127.0.0.1. It records every request (the messages and the `tools` the
 * model would receive) and answers from a script: each conversation is matched by its
 * first user message (which contains the script's prompt), and its Nth answer is the script's Nth turn, where N is the number
 * of tool rounds already in the conversation. A turn is a tool call (or several, in
 * parallel) or a final text answer; a turn may be a function of the request, to answer
 * with what a tool returned. Streaming (`stream: true`) is answered as server-sent events.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { readBody, serveLoopback } from './loopback';

export const SCRIPTED_MODEL = 'gpt-scripted';

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
	content: string | null | Array<{ type: string; text?: string }>;
	tool_calls?: Array<{
		id: string;
		type: 'function';
		function: { name: string; arguments: string };
	}>;
	tool_call_id?: string;
}

export interface ChatTool {
	type: 'function';
	function: {
		name: string;
		description?: string;
		parameters?: Record<string, unknown>;
		strict?: boolean;
	};
}

export interface ChatRequest {
	messages: ChatMessage[];
	tools?: ChatTool[];
	model?: string;
	stream?: boolean;
	stream_options?: { include_usage?: boolean };
	[key: string]: unknown;
}

export interface Recorded {
	method: string;
	path: string;
	/** Whether it carried `Authorization: Bearer …` (the key itself is not kept). */
	bearer: boolean;
	body?: ChatRequest;
}

export interface ToolCall {
	name: string;
	arguments: Record<string, unknown>;
}
export type Answer = { toolCalls: ToolCall[] } | { content: string };
export type Turn = Answer | ((req: ChatRequest) => Answer);

export interface ScriptedLlm {
	/** Base URL of the API, with its /v1 (what the OpenAI credential's Base URL takes). */
	url: string;
	requests: Recorded[];
	/** Chat requests of the conversation whose first user message contains `prompt`. */
	conversation(prompt: string): ChatRequest[];
	/** Answers for the conversation whose first user message contains `prompt`. */
	script(prompt: string, turns: Turn[]): void;
	stop(): Promise<void>;
}

/** The text of a message's content. */
export function text(message: ChatMessage | undefined): string {
	const c = message?.content;
	if (typeof c === 'string') return c;
	return Array.isArray(c) ? c.map((p) => p.text ?? '').join('') : '';
}

/** Tool-call id → the answer (round) that issued it. n8n may replay parallel calls as one assistant message each. */
const issued = new Map<string, number>();
let answers = 0;

/** The tool results of the latest round of tool calls, in call order, parsed when they are JSON. */
export function toolResults(req: ChatRequest): unknown[] {
	const tools = req.messages.filter(
		(m) => m.role === 'tool' && m.tool_call_id !== undefined && issued.has(m.tool_call_id),
	);
	const latest = Math.max(...tools.map((m) => issued.get(m.tool_call_id!)!));
	return tools
		.filter((m) => issued.get(m.tool_call_id!) === latest)
		.sort((a, b) => Number(a.tool_call_id!.slice(5)) - Number(b.tool_call_id!.slice(5)))
		.map((m) => {
			try {
				return JSON.parse(text(m)) as unknown;
			} catch {
				return text(m);
			}
		});
}

const firstUserText = (req: ChatRequest) => text(req.messages.find((m) => m.role === 'user'));
/** How many rounds of tool calls the conversation already holds (answers whose calls it replays). */
const toolRounds = (req: ChatRequest) =>
	new Set(
		req.messages.flatMap((m) =>
			(m.tool_calls ?? []).map((c) => issued.get(c.id) ?? `unknown ${c.id}`),
		),
	).size;

function send(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

const openAiError = (message: string, type = 'invalid_request_error') => ({
	error: { message, type, param: null, code: null },
});

let callCounter = 0;

function assistantMessage(answer: Answer) {
	if ('content' in answer)
		return {
			message: { role: 'assistant', content: answer.content, refusal: null },
			finish: 'stop',
		};
	const round = ++answers;
	const tool_calls = answer.toolCalls.map((c) => ({
		id: `call_${++callCounter}`,
		type: 'function' as const,
		function: { name: c.name, arguments: JSON.stringify(c.arguments) },
	}));
	tool_calls.forEach((c) => issued.set(c.id, round));
	return {
		message: { role: 'assistant', content: null, refusal: null, tool_calls },
		finish: 'tool_calls',
	};
}

const USAGE = { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 };

function answerJson(res: ServerResponse, answer: Answer, model: string): void {
	const { message, finish } = assistantMessage(answer);
	send(res, 200, {
		id: `chatcmpl-${callCounter}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model,
		choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
		usage: USAGE,
	});
}

/** The same answer as OpenAI streams it: role, then content or tool-call deltas, the finish reason, usage, [DONE]. */
function answerStream(
	res: ServerResponse,
	answer: Answer,
	model: string,
	includeUsage: boolean,
): void {
	const { message, finish } = assistantMessage(answer);
	const base = {
		id: `chatcmpl-${callCounter}`,
		object: 'chat.completion.chunk',
		created: Math.floor(Date.now() / 1000),
		model,
	};
	const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) => ({
		...base,
		choices: [{ index: 0, delta, logprobs: null, finish_reason }],
	});
	const events: unknown[] = [
		chunk({ role: 'assistant', content: message.content === null ? null : '' }),
	];
	if (message.content) events.push(chunk({ content: message.content }));
	message.tool_calls?.forEach((c, index) => {
		events.push(
			chunk({
				tool_calls: [
					{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } },
				],
			}),
		);
		events.push(chunk({ tool_calls: [{ index, function: { arguments: c.function.arguments } }] }));
	});
	events.push(chunk({}, finish));
	if (includeUsage) events.push({ ...base, choices: [], usage: USAGE });
	res.writeHead(200, {
		'content-type': 'text/event-stream',
		'cache-control': 'no-cache',
		connection: 'keep-alive',
	});
	for (const e of events) res.write(`data: ${JSON.stringify(e)}\n\n`);
	res.end('data: [DONE]\n\n');
}

/** Starts the server; it is stopped with the test file (onCleanup) or by `stop()`. */
export async function startScriptedLlm(): Promise<ScriptedLlm> {
	const requests: Recorded[] = [];
	const scripts = new Map<string, Turn[]>();

	const handle = async (req: IncomingMessage, res: ServerResponse) => {
		const path = (req.url ?? '/').split('?')[0].replace(/^\/v1(?=\/)/, '');
		const rec: Recorded = {
			method: req.method ?? 'GET',
			path,
			bearer: /^Bearer \S+/.test(String(req.headers.authorization ?? '')),
		};
		requests.push(rec);
		if (req.method === 'GET' && path === '/models') {
			send(res, 200, {
				object: 'list',
				data: [{ id: SCRIPTED_MODEL, object: 'model', created: 0, owned_by: 'scripted' }],
			});
			return;
		}
		if (req.method === 'GET' && path.startsWith('/models/')) {
			send(res, 200, {
				id: decodeURIComponent(path.slice('/models/'.length)),
				object: 'model',
				created: 0,
				owned_by: 'scripted',
			});
			return;
		}
		if (req.method !== 'POST' || path !== '/chat/completions') {
			send(
				res,
				404,
				openAiError(
					`The scripted model only answers POST /v1/chat/completions and GET /v1/models, not ${rec.method} ${path}`,
				),
			);
			return;
		}
		const body = JSON.parse(await readBody(req)) as ChatRequest;
		rec.body = body;
		const prompt = firstUserText(body);
		const turns = scripts.get(prompt) ?? [...scripts].find(([key]) => prompt.includes(key))?.[1];
		const turn = turns?.[toolRounds(body)];
		if (!turn) {
			const why = turns
				? `it has ${turns.length} turns, this is round ${toolRounds(body) + 1}`
				: 'no script starts with this user message';
			send(res, 400, openAiError(`No scripted answer for "${prompt.slice(0, 80)}": ${why}`));
			return;
		}
		const answer = typeof turn === 'function' ? turn(body) : turn;
		const model = body.model ?? SCRIPTED_MODEL;
		if (body.stream) answerStream(res, answer, model, body.stream_options?.include_usage === true);
		else answerJson(res, answer, model);
	};

	const server = await serveLoopback((req, res) =>
		handle(req, res).catch((e: Error) => {
			if (!res.headersSent)
				send(res, 500, openAiError(`Scripted server failure: ${e.message}`, 'server_error'));
			else res.end();
		}),
	);
	return {
		url: `${server.url}/v1`,
		requests,
		conversation: (prompt) =>
			requests.flatMap((r) => (r.body && firstUserText(r.body).includes(prompt) ? [r.body] : [])),
		script: (prompt, turns) => void scripts.set(prompt, turns),
		stop: () => server.close(),
	};
}
