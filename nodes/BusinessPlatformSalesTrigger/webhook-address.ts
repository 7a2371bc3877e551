/**
 * Whether the platform can call n8n at the Trigger's webhook address (n8n's WEBHOOK_URL), judged
 * from the two addresses alone when the Trigger registers its webhooks. No name is looked up
 * (node code has no DNS): a host name other than `localhost` is taken as reachable.
 *
 * - The webhook address is on this machine only (localhost, 127.0.0.0/8, ::1, 0.0.0.0) and the API
 *   Base URL is not: the platform can never call it, so no event would ever arrive. Refused.
 * - The webhook address is in a private network (10/8, 172.16/12, 192.168/16, and the link-local,
 *   shared and unique-local ranges) and the API Base URL is neither on this machine nor in a private
 *   network: the platform reaches it only over a VPN or a private link. Refused unless the user says
 *   the platform does reach it.
 * - Anything else, and the sandbox on this machine (both addresses on loopback): fine.
 */

export type HostKind = 'loopback' | 'private' | 'public' | 'name';

/** The 8 groups of an IPv6 address (as the URL parser writes it: lower case, no brackets), or undefined. */
function ipv6Groups(host: string): number[] | undefined {
	const parts = host.split('::');
	if (parts.length > 2) return undefined;
	const side = (s: string) => (s ? s.split(':') : []);
	const head = side(parts[0]);
	const tail = parts.length === 2 ? side(parts[1]) : [];
	const missing = 8 - head.length - tail.length;
	if (parts.length === 1 ? missing !== 0 : missing < 1) return undefined;
	const groups = [...head, ...Array<string>(parts.length === 2 ? missing : 0).fill('0'), ...tail];
	if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
	return groups.map((g) => parseInt(g, 16));
}

function ipv4Kind(octets: number[]): HostKind {
	const [a, b] = octets;
	if (a === 127 || (a === 0 && octets.every((o) => o === 0))) return 'loopback';
	if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
	// Link-local (169.254/16) and the shared address space of carrier-grade NAT and VPN meshes (100.64/10).
	if ((a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127)) return 'private';
	return 'public';
}

/** What kind of address a URL's host is (`hostname` as the WHATWG URL parser gives it). */
export function hostKind(hostname: string): HostKind {
	const host = hostname.toLowerCase().replace(/\.$/, '');
	if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
	const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	if (v4) return ipv4Kind(v4.slice(1).map(Number));
	if (!host.startsWith('[') || !host.endsWith(']')) return 'name';
	const g = ipv6Groups(host.slice(1, -1));
	if (!g) return 'name';
	const zeroUntil = (n: number) => g.slice(0, n).every((x) => x === 0);
	if (zeroUntil(7) && (g[7] === 1 || g[7] === 0)) return 'loopback'; // ::1, and :: (this host)
	// IPv4-mapped (::ffff:a.b.c.d): the IPv4 address decides.
	if (zeroUntil(5) && g[5] === 0xffff)
		return ipv4Kind([g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff]);
	if ((g[0] & 0xfe00) === 0xfc00 || (g[0] & 0xffc0) === 0xfe80) return 'private'; // fc00::/7, fe80::/10
	return 'public';
}

export interface AddressProblem {
	/** `refuse`: nothing can arrive; `private`: refused unless the user confirms the platform reaches it. */
	kind: 'refuse' | 'private';
	message: string;
	description: string;
}

const hostOf = (url: string): string | undefined => {
	try {
		return new URL(url).hostname;
	} catch {
		return undefined;
	}
};

/** The scheme and host of an address, without its path (the webhook path holds the node's id). */
const origin = (url: string) => {
	try {
		return new URL(url).origin;
	} catch {
		return url;
	}
};

/**
 * What stops the platform at `apiBaseUrl` from calling n8n at `webhookUrl`, or undefined when
 * nothing visible does. Addresses that are not URLs are left to the callers' own checks.
 */
export function webhookAddressProblem(
	webhookUrl: string,
	apiBaseUrl: string,
): AddressProblem | undefined {
	const hook = hostOf(webhookUrl);
	const api = hostOf(apiBaseUrl);
	if (hook === undefined || api === undefined) return undefined;
	const hookKind = hostKind(hook);
	const apiKind = hostKind(api);
	const where = origin(webhookUrl);
	const fix = `Set n8n's WEBHOOK_URL environment variable to the public address the platform can reach n8n at (for example WEBHOOK_URL=https://n8n.example.com/), restart n8n and publish again.`;
	if (hookKind === 'loopback' && apiKind !== 'loopback')
		return {
			kind: 'refuse',
			message: `n8n's webhook address ${where} is on this machine only: the platform at ${api} cannot call it, so no event would ever arrive`,
			description: `${fix} n8n builds its webhook addresses from WEBHOOK_URL, or from N8N_HOST, N8N_PORT and N8N_PROTOCOL when it is not set (localhost by default). On a machine without a public address, a reverse proxy or a tunnel gives n8n one. Against the local sandbox (API Base URL on 127.0.0.1 or localhost) a local address works.`,
		};
	if (hookKind === 'private' && apiKind !== 'loopback' && apiKind !== 'private')
		return {
			kind: 'private',
			message: `n8n's webhook address ${where} is a private network address: the platform at ${api} can call it only if it reaches that network`,
			description: `${fix} If the platform does reach n8n there (a VPN or a private link), turn on the Trigger's Options → Allow Private Webhook Address and publish again.`,
		};
	return undefined;
}
