/**
 * One restart of an n8n that several scenarios share (they run beside each other on it, and each
 * needs n8n stopped and started once): each scenario is a party that joins the restart with what
 * it does while n8n is stopped; the restart happens when every party still running has joined,
 * runs every party's part, and lets them all go on. A party that ends (or fails) without joining
 * leaves, so the others never wait for it.
 */
export interface RestartParty {
	/** Waits for the restart, running `whileStopped` while n8n is stopped. */
	join(whileStopped?: () => Promise<void>): Promise<void>;
	/** The scenario ended: if it never joined, the restart no longer waits for it. */
	leave(): void;
}

export interface SharedRestart {
	party(): RestartParty;
}

export function sharedRestart(
	restart: (whileStopped: () => Promise<void>) => Promise<void>,
	parties: number,
): SharedRestart {
	let expected = parties;
	let done = false;
	const waiting: Array<{
		whileStopped?: () => Promise<void>;
		resolve: () => void;
		reject: (e: unknown) => void;
	}> = [];
	const go = () => {
		if (done || waiting.length === 0 || waiting.length < expected) return;
		done = true;
		const all = waiting.splice(0);
		restart(async () => {
			for (const w of all) await w.whileStopped?.();
		}).then(
			() => all.forEach((w) => w.resolve()),
			(e: unknown) => all.forEach((w) => w.reject(e)),
		);
	};
	return {
		party() {
			let state: 'out' | 'joined' | 'left' = 'out';
			return {
				async join(whileStopped) {
					if (state !== 'out' || done) throw new Error('this n8n restarts once, for every party');
					state = 'joined';
					await new Promise<void>((resolve, reject) => {
						waiting.push({ whileStopped, resolve, reject });
						go();
					});
				},
				leave() {
					if (state !== 'out') return;
					state = 'left';
					expected--;
					go();
				},
			};
		},
	};
}
