/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm run sandbox -- [flags]`: starts the sandbox and prints exactly one JSON
 * line on stdout when ready. Everything else goes to stderr.
 */
import { parseFaultFlag, type FaultRule } from './faults';
import { DEFAULT_CONFIG, startSandbox, type SandboxConfig } from './server';

const HELP = `Business Platform sandbox

Usage: npm run sandbox -- [flags]

  --port <n>              port on 127.0.0.1 (0 picks a free one; default 0)
  --mode <v1|v1-legacy|v2> OAuth behaviour (default v1)
  --token-ttl <s>         access token lifetime in seconds (default 3600)
  --code-ttl <s>          authorization code lifetime (default 60)
  --client-id <id>        OAuth client id (default sandbox-client)
  --client-secret <s>     OAuth client secret (default sandbox-secret)
  --brand <word>          word in "<word>-token" fields (default platform)
  --rows <n>              demo rows per collection and tenant (default 30)
  --seed <n>              random seed of demo data and fault sampling (default 42)
  --page-size <n>         default page size of lists (default 10)
  --max-page-size <n>     largest page size honoured (default 500)
  --fault <rule>          inject a fault; repeatable. JSON, or short form
                          status:503:count=3:path=/v1/crm  latency:2000:rate=0.5
                          status:429:retryAfter=1:rate=0.2  drop:count=2:method=POST
  --regional              also serve a "regional host" on a second port (same data)
  --accept-bearer         benchmarks only: also accept the token as Authorization: Bearer
  --contract              check every request and answer against contract/openapi.yaml
                          (violations at /__admin/contract)
                          (not the platform's behaviour; see the README)
  --help                  this text
`;

function parse(argv: string[]): { config: Partial<SandboxConfig>; faults: FaultRule[] } {
	const config: Partial<SandboxConfig> = {};
	const faults: FaultRule[] = [];
	const num = (flag: string, v: string | undefined) => {
		const n = Number(v);
		if (v === undefined || !Number.isFinite(n)) throw new Error(`${flag} needs a number`);
		return n;
	};
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const next = () => argv[++i];
		switch (flag) {
			case '--port':
				config.port = num(flag, next());
				break;
			case '--mode':
				config.mode = next() as SandboxConfig['mode'];
				break;
			case '--token-ttl':
				config.tokenTtl = num(flag, next());
				break;
			case '--code-ttl':
				config.codeTtl = num(flag, next());
				break;
			case '--client-id':
				config.clientId = next();
				break;
			case '--client-secret':
				config.clientSecret = next();
				break;
			case '--brand':
				config.brand = next();
				break;
			case '--rows':
				config.rows = num(flag, next());
				break;
			case '--seed':
				config.seed = num(flag, next());
				break;
			case '--page-size':
				config.defaultPageSize = num(flag, next());
				break;
			case '--max-page-size':
				config.maxPageSize = num(flag, next());
				break;
			case '--fault':
				faults.push(parseFaultFlag(next()));
				break;
			case '--regional':
				config.regional = true;
				break;
			case '--accept-bearer':
				config.acceptBearer = true;
				break;
			case '--contract':
				config.contract = true;
				break;
			case '--help':
			case '-h':
				process.stderr.write(HELP);
				return process.exit(0);
			default:
				throw new Error(`Unknown flag ${flag} (see --help)`);
		}
	}
	return { config, faults };
}

async function main() {
	const { config, faults } = parse(process.argv.slice(2));
	const sb = await startSandbox({ ...DEFAULT_CONFIG, ...config, faults });
	process.stdout.write(
		JSON.stringify({
			...sb.readyLine(),
			...(sb.regionalBaseUrl ? { regionalBaseUrl: sb.regionalBaseUrl } : {}),
		}) + '\n',
	);
	process.stderr.write(
		`sandbox: ${sb.baseUrl} (mode ${sb.config.mode}, token ttl ${sb.config.tokenTtl}s); admin at ${sb.baseUrl}/__admin/stats; Ctrl-C stops\n`,
	);
	const stop = () => {
		void sb.stop().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((e) => {
	process.stderr.write(`sandbox: ${e instanceof Error ? e.message : String(e)}\n`);
	process.exit(1);
});
