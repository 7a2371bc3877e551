/**
 * The Trigger's check of its webhook address against the API Base URL (webhook-address.ts): a
 * loopback address with a remote platform is refused, a private one needs the user's word, the
 * sandbox on loopback and any public address pass. Every spelling the URL parser accepts for a
 * loopback or private address (decimal, hex, short IPv4, IPv4-mapped IPv6) counts as that address.
 */
import fc from 'fast-check';

import {
	hostKind,
	webhookAddressProblem,
} from '../../nodes/BusinessPlatformSalesTrigger/webhook-address';
import { propertyParameters } from '../helpers/property';

const REMOTE = 'https://api.example.com';
const kindOf = (url: string) => hostKind(new URL(url).hostname);

describe('hostKind', () => {
	it.each([
		['http://localhost:5678/webhook/x/webhook', 'loopback'],
		['http://LOCALHOST./', 'loopback'],
		['http://n8n.localhost/', 'loopback'],
		['http://127.0.0.1:5678/', 'loopback'],
		['http://127.255.3.4/', 'loopback'],
		['http://0x7f.1/', 'loopback'],
		['http://2130706433/', 'loopback'],
		['http://0.0.0.0:5678/', 'loopback'],
		['http://[::1]:5678/', 'loopback'],
		['http://[::]/', 'loopback'],
		['http://[::ffff:127.0.0.1]/', 'loopback'],
		['http://10.1.2.3/', 'private'],
		['http://172.16.0.1/', 'private'],
		['http://172.31.255.255/', 'private'],
		['http://192.168.1.20:5678/', 'private'],
		['http://169.254.1.1/', 'private'],
		['http://100.64.0.1/', 'private'],
		['http://[fd00::1]/', 'private'],
		['http://[fe80::1]/', 'private'],
		['http://[::ffff:10.0.0.1]/', 'private'],
		['http://172.32.0.1/', 'public'],
		['http://172.15.0.1/', 'public'],
		['http://192.169.0.1/', 'public'],
		['http://100.128.0.1/', 'public'],
		['http://8.8.8.8/', 'public'],
		['http://[2001:db8::1]/', 'public'],
		['https://n8n.example.com/', 'name'],
		['http://localhost.example.com/', 'name'],
		['http://my-laptop/', 'name'],
	])('%s is %s', (url, kind) => {
		expect(kindOf(url)).toBe(kind);
	});
});

describe('webhookAddressProblem', () => {
	it('refuses a loopback webhook address with a remote platform, naming WEBHOOK_URL and what to set it to', () => {
		const p = webhookAddressProblem(
			'http://localhost:5678/webhook/0b5c/webhook',
			'https://api.example.com',
		);
		expect(p?.kind).toBe('refuse');
		expect(p?.message).toContain('http://localhost:5678');
		expect(p?.message).toContain('api.example.com');
		expect(p?.message).not.toContain('0b5c'); // the path (the node's webhook id) is not shown
		expect(p?.description).toMatch(/WEBHOOK_URL=https:\/\/n8n\.example\.com\//);
	});

	it('lets the sandbox on loopback through, in every spelling of loopback on either side', () => {
		for (const hook of ['http://127.0.0.1:5678/webhook/a', 'http://localhost:5678/webhook/a'])
			for (const api of ['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010'])
				expect(webhookAddressProblem(hook, api)).toBeUndefined();
	});

	it('asks for the user’s word on a private address with a remote platform, not with a platform in a private network', () => {
		const p = webhookAddressProblem('http://192.168.1.20:5678/webhook/a', REMOTE);
		expect(p?.kind).toBe('private');
		expect(p?.message).toContain('http://192.168.1.20:5678');
		expect(p?.description).toMatch(/WEBHOOK_URL/);
		expect(p?.description).toMatch(/Allow Private Webhook Address/);
		expect(
			webhookAddressProblem('http://192.168.1.20:5678/webhook/a', 'https://10.0.0.5'),
		).toBeUndefined();
		expect(
			webhookAddressProblem('http://192.168.1.20:5678/webhook/a', 'http://127.0.0.1:4010'),
		).toBeUndefined();
	});

	it('passes a public address or a host name, and leaves what is not a URL to other checks', () => {
		expect(webhookAddressProblem('https://n8n.example.com/webhook/a', REMOTE)).toBeUndefined();
		expect(webhookAddressProblem('https://203.0.113.9/webhook/a', REMOTE)).toBeUndefined();
		expect(webhookAddressProblem('not a url', REMOTE)).toBeUndefined();
		expect(webhookAddressProblem('http://localhost/', '')).toBeUndefined();
	});

	it('refuses every address of 127.0.0.0/8, however it is written, with any platform that is not on loopback (property)', () => {
		const octet = fc.integer({ min: 0, max: 255 });
		const spelled = fc
			.tuple(octet, octet, octet, fc.constantFrom('dotted', 'decimal', 'hex', 'mapped'))
			.map(([b, c, d, form]) => {
				const n = ((127 << 24) >>> 0) + (b << 16) + (c << 8) + d;
				if (form === 'decimal') return String(n);
				if (form === 'hex') return `0x${n.toString(16)}`;
				if (form === 'mapped') return `[::ffff:127.${b}.${c}.${d}]`;
				return `127.${b}.${c}.${d}`;
			});
		const remote = fc.oneof(
			fc.constant('https://api.example.com'),
			fc.domain().map((d) => `https://${d}`),
			fc
				.ipV4()
				.filter((ip) => !ip.startsWith('127.') && ip !== '0.0.0.0')
				.map((ip) => `https://${ip}`),
		);
		fc.assert(
			fc.property(spelled, fc.integer({ min: 1, max: 65535 }), remote, (host, port, api) => {
				expect(webhookAddressProblem(`http://${host}:${port}/webhook/x/webhook`, api)?.kind).toBe(
					'refuse',
				);
			}),
			propertyParameters(300),
		);
	});
});
