// The worker's in-process hardening, applied to this test process (node:test runs each file in its own process).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { capWasmMemory, neutraliseNetworkAndSpawning } from '../../../../src/core/sandbox/harden.js';

describe('worker hardening', () => {
  it('neutralises network modules, fetch and process spawning for every holder of the module', async () => {
    neutraliseNetworkAndSpawning();
    const disabled = /is disabled in the Waypoint sandbox/;
    assert.throws(() => net.connect(80, '127.0.0.1'), disabled);
    assert.throws(() => new net.Socket().connect(80, '127.0.0.1'), disabled);
    assert.throws(() => net.createServer().listen(0), disabled);
    assert.throws(() => http.get('http://127.0.0.1/'), disabled);
    assert.throws(() => new http.Agent().createConnection({ host: '127.0.0.1', port: 80 }), disabled);
    assert.throws(() => https.request('https://example.com/'), disabled);
    assert.throws(() => tls.connect(443, 'example.com'), disabled);
    assert.throws(() => dgram.createSocket('udp4'), disabled);
    assert.throws(() => dns.lookup('example.com', () => undefined), disabled);
    assert.throws(() => new dns.Resolver().resolve4('example.com', () => undefined), disabled);
    assert.throws(() => childProcess.spawnSync('true'), disabled);
    // ES module namespaces of the built-ins see the same stubs.
    const esmNet = await import('node:net');
    assert.throws(() => esmNet.connect(80, '127.0.0.1'), disabled);
    assert.equal(typeof (globalThis as { fetch?: unknown }).fetch, 'undefined');
    assert.equal(typeof (globalThis as { WebSocket?: unknown }).WebSocket, 'undefined');
  });

  it('caps WebAssembly memory growth', () => {
    let cap = 4 * 65536;
    capWasmMemory(() => cap);
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 100 });
    assert.equal(memory.grow(3), 1);
    assert.throws(() => memory.grow(1), /sandbox memory cap reached/);
    cap = 10 * 65536;
    assert.equal(memory.grow(1), 4);
  });
});
