import type { Module } from '../module';

export const deals: Module = {
	name: 'deals',
	routes() {},
};
