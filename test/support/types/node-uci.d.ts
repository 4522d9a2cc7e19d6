// The part of node-uci (a UCI client library, no types of its own) the tests use.
declare module 'node-uci' {
  export interface Info { depth?: number; nodes?: number; time?: number; score?: { unit: string; value: number }; pv?: string; string?: string }
  export class Engine {
    constructor(path: string);
    id: { name: string | null; author: string | null };
    options: Map<string, unknown>;
    init(): Promise<Engine>;
    isready(): Promise<Engine>;
    setoption(name: string, value?: string | number | boolean): Promise<Engine>;
    ucinewgame(): Promise<Engine>;
    position(fen: string, moves?: string[]): Promise<Engine>;
    go(options: Record<string, number>): Promise<{ bestmove: string; info: Info[] }>;
    quit(): Promise<Engine>;
  }
}
