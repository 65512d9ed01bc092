/** Prometheus metrics of one app instance (its own registry, so several apps can coexist in tests). */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  readonly moves: Counter;
  readonly roomsCreated: Counter;
  readonly events: Counter<'type'>;
  readonly connections: Counter;
  readonly connectedSockets: Gauge;
  readonly liveRooms: Gauge;
  readonly moveSeconds: Histogram;
  readonly rejected: Counter<'code'>;
  readonly gamesFinished: Counter<'reason'>;
  readonly limited: Counter<'limit'>;
  readonly versionConflicts: Counter;
}

export function createMetrics(liveRooms: () => number): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    moves: new Counter({ name: 'bagh_moves_total', help: 'Moves applied', registers }),
    roomsCreated: new Counter({ name: 'bagh_rooms_created_total', help: 'Rooms created', registers }),
    events: new Counter({
      name: 'bagh_room_events_total',
      help: 'Room events broadcast, by type',
      labelNames: ['type'],
      registers,
    }),
    connections: new Counter({
      name: 'bagh_socket_connections_total',
      help: 'Socket connections accepted',
      registers,
    }),
    connectedSockets: new Gauge({ name: 'bagh_connected_sockets', help: 'Sockets connected now', registers }),
    liveRooms: new Gauge({
      name: 'bagh_live_rooms',
      help: 'Rooms held in memory',
      registers,
      collect() {
        this.set(liveRooms());
      },
    }),
    moveSeconds: new Histogram({
      name: 'bagh_move_handling_seconds',
      help: 'Time from receiving a move to acknowledging it (validation, rules, storage, broadcast)',
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
      registers,
    }),
    gamesFinished: new Counter({
      name: 'bagh_games_finished_total',
      help: 'Games that ended, by reason (captures, trapped, blocked, resign, timeout, …)',
      labelNames: ['reason'],
      registers,
    }),
    rejected: new Counter({
      name: 'bagh_commands_rejected_total',
      help: 'Socket commands answered with an error, by code',
      labelNames: ['code'],
      registers,
    }),
    limited: new Counter({
      name: 'bagh_limited_total',
      help: 'Requests, commands and connections refused by a per-person limit, by limit (chat, rooms, bot-games, sockets)',
      labelNames: ['limit'],
      registers,
    }),
    versionConflicts: new Counter({
      name: 'bagh_store_version_conflicts_total',
      help: 'Appends that met a change another node stored at the same room version (the command is judged again on the stored room, up to a few times)',
      registers,
    }),
  };
}
