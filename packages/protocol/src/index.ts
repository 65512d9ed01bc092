export * from './common.js';
export * from './errors.js';
export * from './http.js';
export * from './limits.js';
export * from './snapshot.js';
export * from './socket.js';
