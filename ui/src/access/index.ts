export * from './rules';
export * from './menu';
export * from './context';
