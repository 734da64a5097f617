/**
 * The signals stage forwards to the command it runs, and the exit status a signal gives.
 */
import * as os from 'os';
import { FORWARDED_SIGNALS, signalStatus } from '../../../src/cli/stage/signals';

describe('the forwarded signals', () => {
  test.each(['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGTERM', 'SIGUSR1', 'SIGUSR2', 'SIGALRM', 'SIGPIPE', 'SIGABRT', 'SIGXCPU', 'SIGXFSZ', 'SIGVTALRM', 'SIGSYS', 'SIGTRAP'])(
    'include %s, which ends a process by default', (signal) => {
      expect(FORWARDED_SIGNALS).toContain(signal);
    });

  test.each(['SIGKILL', 'SIGSTOP', 'SIGSEGV', 'SIGBUS', 'SIGFPE', 'SIGILL', 'SIGPROF', 'SIGCHLD', 'SIGCONT', 'SIGTSTP', 'SIGWINCH', 'SIGURG'])(
    'leave out %s (cannot be caught, not safe to catch, or does not end a process)', (signal) => {
      expect(FORWARDED_SIGNALS).not.toContain(signal);
    });

  test('hold each signal number once (SIGIOT is SIGABRT)', () => {
    const numbers = FORWARDED_SIGNALS.map((s) => os.constants.signals[s]);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  test('a signal status is 128+N', () => {
    expect(signalStatus('SIGTERM')).toBe(143);
    expect(signalStatus('SIGQUIT')).toBe(131);
  });
});
