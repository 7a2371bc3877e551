import type { Module } from '../module';

export const campaigns: Module = {
	name: 'campaigns',
	routes() {},
};
