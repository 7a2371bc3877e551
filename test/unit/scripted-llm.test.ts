/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The scripted OpenAI-compatible server the agent tests use: it answers a conversation
 * turn by turn from its script, as JSON or as a stream, and records what it received.
 */
import { startScriptedLlm, toolResults, type ScriptedLlm } from '../helpers/scripted-llm';

let llm: ScriptedLlm;

beforeAll(async () => {
	llm = await startScriptedLlm();
	llm.script('Add Ada', [
		{ toolCalls: [{ name: 'create_contact', arguments: { name: 'Ada' } }] },
		(req) => ({ content: `Created #${(toolResults(req)[0] as Array<{ id: number }>)[0].id}` }),
	]);
});

afterAll(async () => {
	await llm?.stop();
});

const tools = [
	{
		type: 'function',
		function: {
			name: 'create_contact',
			description: 'Create a contact',
			parameters: { type: 'object', properties: { name: { type: 'string' } } },
		},
	},
];
const chat = async (body: Record<string, unknown>) =>
	await fetch(`${llm.url}/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
		body: JSON.stringify({ model: 'gpt-scripted', ...body }),
	});

describe('the scripted chat-completions server', () => {
	it('answers the first round with the scripted tool call and the next with the final answer, which can quote the tool result', async () => {
		const first = (await (
			await chat({ messages: [{ role: 'user', content: 'Add Ada' }], tools })
		).json()) as any;
		expect(first.choices[0]).toMatchObject({
			finish_reason: 'tool_calls',
			message: {
				role: 'assistant',
				content: null,
				tool_calls: [
					{ type: 'function', function: { name: 'create_contact', arguments: '{"name":"Ada"}' } },
				],
			},
		});
		const call = first.choices[0].message.tool_calls[0];
		const messages = [
			{ role: 'user', content: 'Add Ada' },
			first.choices[0].message,
			{ role: 'tool', tool_call_id: call.id, content: '[{"id":7}]' },
		];
		const second = (await (await chat({ messages, tools })).json()) as any;
		expect(second.choices[0]).toMatchObject({
			finish_reason: 'stop',
			message: { content: 'Created #7' },
		});
		expect(llm.conversation('Add Ada').map((r) => r.tools?.map((t) => t.function.name))).toEqual([
			['create_contact'],
			['create_contact'],
		]);
		expect(llm.requests.every((r) => r.bearer)).toBe(true);
	});

	it('streams the same answer as server-sent events when asked to', async () => {
		const res = await chat({
			messages: [{ role: 'user', content: 'Add Ada' }],
			tools,
			stream: true,
			stream_options: { include_usage: true },
		});
		expect(res.headers.get('content-type')).toBe('text/event-stream');
		const events = (await res.text())
			.split('\n\n')
			.filter(Boolean)
			.map((e) => e.replace(/^data: /, ''));
		expect(events.at(-1)).toBe('[DONE]');
		const chunks = events.slice(0, -1).map((e) => JSON.parse(e) as any);
		const args = chunks
			.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? [])
			.map((t: any) => t.function.arguments)
			.join('');
		expect(JSON.parse(args)).toEqual({ name: 'Ada' });
		expect(chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean)).toEqual(['tool_calls']);
		expect(chunks.at(-1).usage).toMatchObject({ total_tokens: expect.any(Number) });
	});

	it('lists its model, and refuses unscripted conversations and other routes with OpenAI-style errors', async () => {
		expect(((await (await fetch(`${llm.url}/models`)).json()) as any).data[0].id).toBe(
			'gpt-scripted',
		);
		const unscripted = await chat({ messages: [{ role: 'user', content: 'Something else' }] });
		expect(unscripted.status).toBe(400);
		expect(((await unscripted.json()) as any).error.message).toMatch(
			/No scripted answer for "Something else"/,
		);
		const other = await fetch(`${llm.url}/responses`, { method: 'POST', body: '{}' });
		expect(other.status).toBe(404);
		expect(((await other.json()) as any).error.message).toMatch(
			/only answers POST \/v1\/chat\/completions/,
		);
	});
});
