import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../api/config.ts';
import { clientAddress, trustFunction } from '../../api/http/client-address.ts';
import { ChallengeVerifier } from '../../api/leads/challenge.ts';

describe('configuration', () => {
  it('counts NODE_ENV=production in any case as production, and then requires CHALLENGE_SECRET', () => {
    for (const value of ['production', 'Production', 'PRODUCTION', 'pRoDuCtIoN']) {
      assert.throws(() => loadConfig({ NODE_ENV: value }), (e: Error) => e instanceof ConfigError && /CHALLENGE_SECRET is required when NODE_ENV=production/.test(e.message), value);
      const config = loadConfig({ NODE_ENV: value, CHALLENGE_SECRET: 'turnstile-secret', CHALLENGE_SITE_KEY: 'turnstile-site-key', SMTP_URL: 'smtp://mail.example:587' });
      assert.equal(config.production, true, value);
    }
    assert.equal(loadConfig({ NODE_ENV: 'development' }).production, false);
    // the verifier refuses too, whoever builds it
    assert.throws(() => new ChallengeVerifier({ nodeEnv: 'Production' }), /CHALLENGE_SECRET is required/);
    assert.throws(() => new ChallengeVerifier({ nodeEnv: 'production', secret: '  ' }), /CHALLENGE_SECRET is required/);
  });

  it('trims NODE_ENV, so "production " is production, and refuses an environment it does not know', () => {
    for (const value of ['production ', ' production', '\tProduction\n']) {
      assert.throws(() => loadConfig({ NODE_ENV: value }), (e: Error) => e instanceof ConfigError && /CHALLENGE_SECRET is required when NODE_ENV=production/.test(e.message), JSON.stringify(value));
      const config = loadConfig({ NODE_ENV: value, CHALLENGE_SECRET: 'turnstile-secret', CHALLENGE_SITE_KEY: 'turnstile-site-key', SMTP_URL: 'smtp://mail.example:587' });
      assert.equal(config.production, true);
      assert.equal(config.nodeEnv, 'production');
    }
    assert.equal(loadConfig({ NODE_ENV: 'test ' }).nodeEnv, 'test');
    for (const value of ['prod', 'staging', 'production-eu', '  ']) {
      assert.throws(() => loadConfig({ NODE_ENV: value, CHALLENGE_SECRET: 'turnstile-secret' }),
        (e: Error) => e instanceof ConfigError && e.message.includes('NODE_ENV: "') && e.message.includes('is not one of production, development, test'), JSON.stringify(value));
    }
  });

  it('refuses a blank CHALLENGE_SECRET in every environment', () => {
    for (const env of ['production', 'development']) {
      for (const secret of [' ', '\t', '   \n']) {
        assert.throws(() => loadConfig({ NODE_ENV: env, CHALLENGE_SECRET: secret }), (e: Error) => e instanceof ConfigError && /CHALLENGE_SECRET is blank/.test(e.message));
      }
    }
    assert.equal(loadConfig({}).leads.challengeSecret, undefined, 'unset stays allowed outside production');
  });

  it('requires CHALLENGE_SITE_KEY with CHALLENGE_SECRET, for the widget of the site\'s enquiry forms', () => {
    for (const env of ['production', 'development']) {
      assert.throws(() => loadConfig({ NODE_ENV: env, CHALLENGE_SECRET: 'turnstile-secret' }), (e: Error) => e instanceof ConfigError && /CHALLENGE_SITE_KEY is required with CHALLENGE_SECRET/.test(e.message));
      assert.throws(() => loadConfig({ NODE_ENV: env, CHALLENGE_SECRET: 'turnstile-secret', CHALLENGE_SITE_KEY: '  ' }), /CHALLENGE_SITE_KEY is required/);
    }
    assert.equal(loadConfig({ CHALLENGE_SECRET: 's', CHALLENGE_SITE_KEY: 'k' }).leads.challengeSiteKey, 'k');
    assert.equal(loadConfig({ CHALLENGE_SITE_KEY: 'k' }).leads.challengeSiteKey, undefined, 'no widget while challenges are off');
  });

  it('refuses to start in production with mail spooled to a directory not declared a volume', () => {
    const production = { NODE_ENV: 'production', CHALLENGE_SECRET: 'turnstile-secret', CHALLENGE_SITE_KEY: 'turnstile-site-key', LEADS_MAIL_SPOOL: '/srv/mail' };
    for (const declared of [undefined, '', '0', 'false']) {
      assert.throws(() => loadConfig({ ...production, LEADS_MAIL_SPOOL_VOLUME: declared }),
        (e: Error) => e instanceof ConfigError && e.message.includes('SMTP_URL is unset, so enquiry mail is written as .eml files to LEADS_MAIL_SPOOL (/srv/mail)')
          && /set SMTP_URL, or mount a volume at LEADS_MAIL_SPOOL and declare it with LEADS_MAIL_SPOOL_VOLUME=1/.test(e.message), String(declared));
    }
    assert.equal(loadConfig({ ...production, LEADS_MAIL_SPOOL_VOLUME: '1' }).leads.mailSpool, '/srv/mail');
    assert.equal(loadConfig({ ...production, SMTP_URL: 'smtp://mail.example:587' }).leads.smtpUrl, 'smtp://mail.example:587');
    assert.throws(() => loadConfig({ ...production, LEADS_MAIL_SPOOL_VOLUME: 'maybe' }), /invalid environment: LEADS_MAIL_SPOOL_VOLUME/);
    // outside production the spool in var/mail stays the default
    assert.equal(loadConfig({}).leads.mailSpool, 'var/mail');
  });

  it('reads TRUST_PROXY as none, a hop count or the proxies, and refuses "true"', () => {
    assert.deepEqual(loadConfig({}).trustProxy, { kind: 'none' });
    assert.deepEqual(loadConfig({ TRUST_PROXY: '0' }).trustProxy, { kind: 'none' });
    assert.deepEqual(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, { kind: 'none' });
    assert.deepEqual(loadConfig({ TRUST_PROXY: '1' }).trustProxy, { kind: 'hops', hops: 1 });
    assert.deepEqual(loadConfig({ TRUST_PROXY: '172.28.0.10, 10.0.0.0/8,fd00::/8' }).trustProxy,
      { kind: 'addresses', addresses: ['172.28.0.10', '10.0.0.0/8', 'fd00::/8'] });
    for (const value of ['true', 'TRUE', 'on']) {
      assert.throws(() => loadConfig({ TRUST_PROXY: value }), (e: Error) => e instanceof ConfigError && /TRUST_PROXY: .*would trust every hop.*name the proxies/.test(e.message), value);
    }
    // ranges that hold clients, not proxies: every address, or every IPv4 one (IPv4-mapped IPv6)
    for (const value of ['0.0.0.0/0', '::/0', '10.0.0.1, 0.0.0.0/0', '::ffff:0:0/96', '::/80', '::ffff:0.0.0.0/100', '128.0.0.0/1', '::/6']) {
      const entry = value.split(', ').at(-1);
      assert.throws(() => loadConfig({ TRUST_PROXY: value }), (e: Error) => e instanceof ConfigError && e.message.includes(`TRUST_PROXY: "${entry}" would trust every hop`), value);
    }
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8,fc00::/7,::ffff:10.0.0.0/104' }).trustProxy,
      { kind: 'addresses', addresses: ['10.0.0.0/8', 'fc00::/7', '::ffff:10.0.0.0/104'] });
    for (const value of ['proxy.internal', '10.0.0.0/33', '10.0.0.1/8/2', '300.1.1.1', '0/0']) {
      assert.throws(() => loadConfig({ TRUST_PROXY: value }), (e: Error) => e instanceof ConfigError && e.message.includes(`TRUST_PROXY: "${value.split(',')[0]}" is not an IP address or CIDR`), value);
    }
  });

  it('takes the client address behind the trusted proxies, never the entry a client wrote', () => {
    const forwarded = '10.9.9.7, 198.51.100.4';
    // behind one proxy at 172.28.0.10 that appends the address it saw
    const byAddress = trustFunction(loadConfig({ TRUST_PROXY: '172.28.0.10' }).trustProxy);
    assert.equal(clientAddress(byAddress, '172.28.0.10', forwarded), '198.51.100.4');
    assert.equal(clientAddress(byAddress, '::ffff:172.28.0.10', forwarded), '198.51.100.4');
    // a client reaching the replica directly cannot claim an address
    assert.equal(clientAddress(byAddress, '198.51.100.9', forwarded), '198.51.100.9');
    const byHops = trustFunction(loadConfig({ TRUST_PROXY: '1' }).trustProxy);
    assert.equal(clientAddress(byHops, '172.28.0.10', forwarded), '198.51.100.4');
    const twoHops = trustFunction(loadConfig({ TRUST_PROXY: '2' }).trustProxy);
    assert.equal(clientAddress(twoHops, '172.28.0.10', forwarded), '10.9.9.7');
    const subnet = trustFunction(loadConfig({ TRUST_PROXY: '172.28.0.0/24' }).trustProxy);
    assert.equal(clientAddress(subnet, '172.28.0.10', '10.9.9.7, 198.51.100.4, 172.28.0.11'), '198.51.100.4');
    assert.equal(clientAddress(trustFunction({ kind: 'none' }), '172.28.0.10', forwarded), '172.28.0.10');
  });

  it('takes the peer when the chain is shorter than TRUST_PROXY declares, never the left-most entry', () => {
    // TRUST_PROXY=3 with one real proxy: "10.9.9.7" is the client's own writing, 198.51.100.4 what the proxy saw
    const threeHops = trustFunction(loadConfig({ TRUST_PROXY: '3' }).trustProxy);
    assert.equal(clientAddress(threeHops, '172.28.0.10', '10.9.9.7, 198.51.100.4'), '172.28.0.10');
    assert.equal(clientAddress(threeHops, '172.28.0.10', '198.51.100.4'), '172.28.0.10');
    assert.equal(clientAddress(threeHops, '172.28.0.10', '10.9.9.9, 10.9.9.8, 10.9.9.7, 198.51.100.4'), '10.9.9.8', 'a full chain: the address the outermost hop saw');
    // a chain of proxies only: the peer, not a proxy address further out
    const subnet = trustFunction(loadConfig({ TRUST_PROXY: '172.28.0.0/24' }).trustProxy);
    assert.equal(clientAddress(subnet, '172.28.0.10', '172.28.0.11'), '172.28.0.10');
  });
});
