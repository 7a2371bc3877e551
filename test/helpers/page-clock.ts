/**
 * A clock for a poll's budget (the tuning's poll.now, nodes/shared/tuning.ts) that moves by the time each list page takes:
 * every page the sandbox served since the clock last looked adds `pageMs`. A poll's time is then
 * the same on every run and every machine (no real waiting).
 */
export class PageClock {
	private ms = 0;
	private seen = 0;
	/** What each page takes from now on. */
	pageMs = 1000;

	/** What the next pages take, one each, before `pageMs` again (a page slower than the ones before it). */
	next: number[] = [];

	/** `pages`: how many list pages the sandbox served so far. */
	constructor(private readonly pages: () => number) {
		this.seen = pages();
	}

	/** Time passing between polls (a Poll Time). */
	advance(ms: number): void {
		this.ms += ms;
	}

	readonly now = (): number => {
		const read = this.pages();
		for (let n = this.seen; n < read; n++) this.ms += this.next.shift() ?? this.pageMs;
		this.seen = read;
		return this.ms;
	};
}

/** Record list pages the sandbox served so far (its counters: cheap at every look of a page clock). */
export function recordPagesServed(stats: () => Record<string, unknown>): number {
	const byRoute = stats().byRoute as Record<string, number>;
	let pages = 0;
	for (const route of Object.keys(byRoute))
		if (route.includes('paged-record')) pages += byRoute[route];
	return pages;
}
