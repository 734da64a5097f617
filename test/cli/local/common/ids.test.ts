/**
 * The ids the gateway hands out, and the trace header it passes on.
 */
import { segmentId, traceId, withGatewayParent } from '../../../../src/cli/local/common/ids';

test('a trace id is Root=1-<8 hex digits of epoch seconds>-<24 hex digits>', () => {
  expect(traceId(Date.UTC(2016, 5, 9))).toMatch(/^Root=1-5758b180-[0-9a-f]{24}$/);
});

test('a segment id is 16 hex digits, new each time', () => {
  expect(segmentId()).toMatch(/^[0-9a-f]{16}$/);
  expect(segmentId()).not.toBe(segmentId());
});

describe('a client trace header passed on', () => {
  test('a Parent is replaced by a new segment id; Root, Sampled and the order stay', () => {
    const passed = withGatewayParent('Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1');
    expect(passed).toMatch(/^Root=1-5759e988-bd862e3fe1be46a994272793;Parent=[0-9a-f]{16};Sampled=1$/);
    expect(passed).not.toContain('53995c3f42cd8ad8');
  });

  test('a Parent first, or after a space, is replaced too', () => {
    expect(withGatewayParent('Parent=53995c3f42cd8ad8;Root=1-5759e988-bd862e3fe1be46a994272793')).toMatch(/^Parent=[0-9a-f]{16};Root=1-5759e988-bd862e3fe1be46a994272793$/);
    expect(withGatewayParent('Root=1-5759e988-bd862e3fe1be46a994272793; Parent=53995c3f42cd8ad8')).toMatch(/^Root=1-5759e988-bd862e3fe1be46a994272793; Parent=[0-9a-f]{16}$/);
  });

  test('a header without Parent is passed as it is', () => {
    expect(withGatewayParent('Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1')).toBe('Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1');
    expect(withGatewayParent('Root=1-5759e988-bd862e3fe1be46a994272793;Lineage=a:1;ParentX=1')).toBe('Root=1-5759e988-bd862e3fe1be46a994272793;Lineage=a:1;ParentX=1');
  });
});
