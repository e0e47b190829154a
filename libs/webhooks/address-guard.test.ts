import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PrivateTargets, RefusedUrlError, assertDeliverableUrl, isNonPublicAddress } from './address-guard';

const LOOPBACK = PrivateTargets.parse(['loopback']);

/** Receiver URLs with literal addresses (no DNS), and whether a webhook may go there. */
const CASES: Array<[url: string, deliverable: boolean, why: string]> = [
  // IPv4: public unicast
  ['https://8.8.8.8/hook', true, 'public'],
  ['http://1.1.1.1:8080/hook', true, 'public, other port'],
  ['https://93.184.216.34/', true, 'public'],
  ['https://151.101.1.69/x?y=1', true, 'public'],
  ['http://0x08080808/', true, 'public, hex form normalised by URL'],
  // IPv4: not public
  ['http://127.0.0.1/', false, 'loopback'],
  ['http://127.255.255.254/', false, 'loopback range'],
  ['http://2130706433/', false, 'loopback as a decimal integer'],
  ['http://0x7f.1/', false, 'loopback in shorthand hex'],
  ['http://0.0.0.0/', false, 'unspecified'],
  ['http://10.0.0.1/', false, 'private 10/8'],
  ['http://10.255.255.255/', false, 'private 10/8'],
  ['http://172.16.0.1/', false, 'private 172.16/12'],
  ['http://172.31.255.1/', false, 'private 172.16/12'],
  ['http://192.168.1.1/', false, 'private 192.168/16'],
  ['http://169.254.169.254/latest/meta-data/', false, 'link-local (cloud metadata)'],
  ['http://100.64.0.1/', false, 'carrier-grade NAT'],
  ['http://100.127.255.254/', false, 'carrier-grade NAT'],
  ['http://192.0.0.8/', false, 'IETF protocol assignments'],
  ['http://192.0.2.10/', false, 'documentation TEST-NET-1'],
  ['http://198.51.100.7/', false, 'documentation TEST-NET-2'],
  ['http://203.0.113.9/', false, 'documentation TEST-NET-3'],
  ['http://198.18.0.1/', false, 'benchmarking'],
  ['http://224.0.0.1/', false, 'multicast'],
  ['http://239.255.255.250/', false, 'multicast (SSDP)'],
  ['http://240.0.0.1/', false, 'reserved'],
  ['http://255.255.255.255/', false, 'broadcast'],
  // IPv6: public unicast
  ['https://[2606:4700:4700::1111]/', true, 'public IPv6'],
  ['https://[2001:4860:4860::8888]/hook', true, 'public IPv6'],
  ['https://[2a00:1450:4001:81b::200e]/', true, 'public IPv6'],
  // IPv6: not public
  ['http://[::1]/', false, 'loopback'],
  ['http://[::]/', false, 'unspecified'],
  ['http://[fe80::1]/', false, 'link-local'],
  ['http://[febf::1]/', false, 'link-local range'],
  ['http://[fc00::1]/', false, 'unique local'],
  ['http://[fd12:3456:789a::1]/', false, 'unique local'],
  ['http://[fec0::1]/', false, 'site-local (deprecated)'],
  ['http://[fef0::1]/', false, 'site-local range'],
  ['http://[ff02::1]/', false, 'multicast'],
  ['http://[2001:db8::1]/', false, 'documentation'],
  ['http://[100::1]/', false, 'discard-only'],
  // IPv6 that embeds or translates to IPv4: judged by the IPv4 address
  ['http://[::ffff:127.0.0.1]/', false, 'IPv4-mapped loopback'],
  ['http://[::ffff:7f00:1]/', false, 'IPv4-mapped loopback, hex'],
  ['http://[::ffff:10.0.0.1]/', false, 'IPv4-mapped private'],
  ['http://[::ffff:169.254.169.254]/', false, 'IPv4-mapped metadata'],
  ['https://[::ffff:8.8.8.8]/', true, 'IPv4-mapped public'],
  ['http://[::ffff:0:127.0.0.1]/', false, 'IPv4-translated (RFC 6145) loopback'],
  ['http://[::127.0.0.1]/', false, 'IPv4-compatible loopback'],
  ['http://[::10.1.2.3]/', false, 'IPv4-compatible private'],
  ['http://[::a9fe:a9fe]/', false, 'IPv4-compatible metadata, hex'],
  ['https://[::8.8.8.8]/', true, 'IPv4-compatible public'],
  ['http://[64:ff9b::127.0.0.1]/', false, 'NAT64 loopback'],
  ['http://[64:ff9b::a00:1]/', false, 'NAT64 private, hex'],
  ['http://[64:ff9b::169.254.169.254]/', false, 'NAT64 metadata'],
  ['https://[64:ff9b::8.8.8.8]/', true, 'NAT64 public'],
  ['http://[64:ff9b:1::1]/', false, 'local-use NAT64 (RFC 8215)'],
  ['http://[64:ff9b:1:abcd::8.8.8.8]/', false, 'local-use NAT64, whatever it embeds'],
  ['http://[2002:7f00:1::]/', false, '6to4 of loopback'],
  ['http://[2002:a00:1::1]/', false, '6to4 of 10.0.0.1'],
  ['http://[2002:c0a8:101::1]/', false, '6to4 of 192.168.1.1'],
  ['http://[2002:a9fe:a9fe::1]/', false, '6to4 of the metadata address'],
  ['https://[2002:808:808::1]/', true, '6to4 of 8.8.8.8'],
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', false, 'Teredo, client 127.0.0.1'],
  ['http://[2001:0:c0a8:101:8000:63bf:f7f7:f7f7]/', false, 'Teredo, server 192.168.1.1'],
  ['https://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/', true, 'Teredo, server 65.54.227.120, client 8.8.8.8'],
  // Not http(s), or with credentials
  ['ftp://8.8.8.8/', false, 'not http(s)'],
  ['file:///etc/passwd', false, 'not http(s)'],
  ['gopher://8.8.8.8/', false, 'not http(s)'],
  ['https://user:pw@8.8.8.8/', false, 'credentials in the URL'],
  ['https://8.8.8.8:0/', false, 'port 0, which no connection reaches'],
  ['https://8.8.8.8:65535/', true, 'the highest port'],
  ['not a url', false, 'not a URL'],
];

describe('receiver URL guard', () => {
  it(`has at least 60 cases`, () => assert.ok(CASES.length >= 60, String(CASES.length)));

  it('refuses port 0 even where private receivers are allowed', async () => {
    await assert.rejects(assertDeliverableUrl('http://127.0.0.1:0/hooks', LOOPBACK), RefusedUrlError);
    assert.equal((await assertDeliverableUrl('http://127.0.0.1:8080/hooks', LOOPBACK)).port, '8080');
  });

  for (const [url, deliverable, why] of CASES) {
    it(`${deliverable ? 'allows' : 'refuses'} ${url} (${why})`, async () => {
      const outcome = await assertDeliverableUrl(url, PrivateTargets.NONE).then(
        () => 'allowed',
        (error: unknown) => {
          assert.ok(error instanceof RefusedUrlError, String(error));
          return 'refused';
        },
      );
      assert.equal(outcome, deliverable ? 'allowed' : 'refused');
    });
  }

  it('judges resolved addresses the same way (the check made again at connection time)', () => {
    assert.equal(isNonPublicAddress('8.8.8.8'), false);
    assert.equal(isNonPublicAddress('::ffff:127.0.0.1'), true);
    assert.equal(isNonPublicAddress('64:ff9b::10.0.0.1'), true);
    assert.equal(isNonPublicAddress('fe80::1%eth0'), true);
    assert.equal(isNonPublicAddress('not an address'), true);
  });

  it('allows only the listed private targets, one address or network at a time', async () => {
    assert.equal((await assertDeliverableUrl('http://127.0.0.1:3000/hook', LOOPBACK)).port, '3000');
    await assert.rejects(assertDeliverableUrl('ftp://127.0.0.1/', LOOPBACK), RefusedUrlError);
    const office = PrivateTargets.parse(['10.1.2.0/24', '192.168.7.9']);
    assert.deepEqual(
      ['10.1.2.5', '10.1.3.5', '192.168.7.9', '192.168.7.10', '127.0.0.1', '8.8.8.8'].map((address) => office.allows(address)),
      [true, false, true, false, false, true],
    );
    assert.equal(String(office), '10.1.2.0/24, 192.168.7.9/32');
    assert.throws(() => PrivateTargets.parse(['10.1.2.0/33']), /not an IP address, a CIDR or "loopback"/);
    assert.throws(() => PrivateTargets.parse(['intranet.example']), /not an IP address/);
  });

  it('never opens link-local or metadata addresses by a wider entry, only by one of their own', () => {
    const everything = PrivateTargets.parse(['0.0.0.0/0', '::/0']);
    for (const metadata of ['169.254.169.254', '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::', 'fd00:ec2::254', 'fe80::1']) {
      assert.equal(everything.allows(metadata), false, metadata);
    }
    assert.equal(everything.allows('10.0.0.1'), true);
    const one = PrivateTargets.parse(['169.254.10.5']);
    assert.deepEqual([one.allows('169.254.10.5'), one.allows('169.254.169.254')], [true, false]);
  });

  // The targets a hostile tester sent a fresh `npm start` (an API on loopback, which allows loopback only).
  const SSRF_TARGETS: Array<[string, boolean]> = [
    ['http://127.0.0.1:18082/x', true],
    ['http://127.1:18082/x', true],
    ['http://2130706433/', true],
    ['http://0x7f000001/', true],
    ['http://0177.0.0.1/', true],
    ['http://[::1]/', true],
    ['http://localhost/', true],
    ['http://10.0.0.1/', false],
    ['http://172.16.0.1/', false],
    ['http://192.168.1.1/', false],
    ['http://100.64.0.1/', false],
    ['http://169.254.169.254/latest/meta-data/', false],
    ['http://0xa9fea9fe/', false],
    ['http://2852039166/', false],
    ['http://[::ffff:169.254.169.254]/', false],
    ['http://[::ffff:10.0.0.1]/', false],
    ['http://[64:ff9b::a9fe:a9fe]/', false],
    ['http://[64:ff9b::7f00:1]/', false],
    ['http://[2002:a9fe:a9fe::]/', false],
    ['http://[2002:7f00:1::]/', false],
    ['http://[fd00:ec2::254]/', false],
    ['http://[fe80::1]/', false],
    ['http://[fc00::1]/', false],
    ['http://0.0.0.0/', false],
    ['http://[::]/', false],
    ['http://224.0.0.1/', false],
    ['http://198.18.0.1/', false],
  ];
  it(`refuses every one of ${SSRF_TARGETS.length} internal targets but loopback under the embedded default, and every one with no allow-list`, async () => {
    const outcome = (url: string, allowed: PrivateTargets) =>
      assertDeliverableUrl(url, allowed).then(
        () => true,
        () => false,
      );
    for (const [url, loopback] of SSRF_TARGETS) {
      assert.equal(await outcome(url, LOOPBACK), loopback, `${url} with loopback allowed`);
      assert.equal(await outcome(url, PrivateTargets.NONE), false, `${url} with nothing allowed`);
    }
  });
});
