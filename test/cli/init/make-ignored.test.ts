/**
 * Where init adds its line, with git's verdicts given: the folder's own .gitignore, or the nested
 * .gitignore whose negation un-ignores the file; and the error when an added line does not win.
 */
import { CliError } from '../../../src/cli/command';
import { IgnoreVerdict } from '../../../src/cli/init/git-ignore';
import { makeIgnored } from '../../../src/cli/init/make-ignored';

const shared = (source: string, pattern = 'vendor_outputs.json') => ({ source, line: 1, pattern });

test('already ignored by a .gitignore of the work tree: nothing is added', () => {
  const append = jest.fn(() => false);
  const result = makeIgnored({
    dir: '/repo/app',
    top: '/repo',
    paths: ['vendor_outputs.json'],
    ask: () => [{ path: 'vendor_outputs.json', ignored: true, match: shared('/repo/.gitignore') }],
    append,
  });
  expect(result).toEqual({ added: [], decidedBy: shared('/repo/.gitignore') });
  expect(append).not.toHaveBeenCalled();
});

test('a .gitignore outside the work tree (a global one named .gitignore) does not count as shared', () => {
  let answers: IgnoreVerdict[] = [{ path: 'vendor_outputs.json', ignored: true, match: shared('/home/me/.gitignore') }];
  const result = makeIgnored({
    dir: '/repo',
    top: '/repo',
    paths: ['vendor_outputs.json'],
    ask: () => answers,
    append: () => {
      answers = [{ path: 'vendor_outputs.json', ignored: true, match: { source: '/repo/.gitignore', line: 3, pattern: 'vendor_outputs.json' } }];
      return true;
    },
  });
  expect(result.added).toEqual([{ file: '/repo/.gitignore', created: true, verdict: { path: 'vendor_outputs.json', ignored: true, match: shared('/home/me/.gitignore') } }]);
});

test('an added line that does not win is an error naming what still decides, not a loop', () => {
  const stuck: IgnoreVerdict = { path: 'vendor_outputs.json', ignored: false, match: { source: '/repo/.gitignore', line: 2, pattern: '!*.json' } };
  const append = jest.fn(() => false);
  const run = () => makeIgnored({ dir: '/repo', top: '/repo', paths: ['vendor_outputs.json'], ask: () => [stuck], append });
  expect(run).toThrow(CliError);
  expect(run).toThrow('git still does not ignore vendor_outputs.json after adding a line to /repo/.gitignore (/repo/.gitignore:2: !*.json decides); add an ignore rule for it by hand');
});
