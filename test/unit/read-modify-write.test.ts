import { describe, expect, it } from 'vitest';
import { changedMeanwhile, CrmError } from '../../src/domain/errors.ts';
import { MAX_UPDATE_ATTEMPTS, updateInTurn } from '../../src/domain/services/read-modify-write.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('updateInTurn', () => {
  it('runs the updates of one row one after another, and of other rows alongside', async () => {
    const log: string[] = [];
    const step = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([updateInTurn('a', step('a1')), updateInTurn('a', step('a2')), updateInTurn('b', step('b1'))]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
  });

  it('lets the next update of a row run after one that failed', async () => {
    const failed = updateInTurn('row', async () => { throw new CrmError('not_found', 'gone'); });
    const next = updateInTurn('row', async () => 'ran');
    await expect(failed).rejects.toThrow('gone');
    await expect(next).resolves.toBe('ran');
  });

  it('redoes an attempt that another write overtook, and gives up after MAX_UPDATE_ATTEMPTS with the conflict', async () => {
    let tries = 0;
    expect(await updateInTurn('c', async () => {
      tries += 1;
      if (tries < 3) throw changedMeanwhile('record', 'rec_1');
      return tries;
    })).toBe(3);
    tries = 0;
    await expect(updateInTurn('c', async () => { tries += 1; throw changedMeanwhile('record', 'rec_1'); }))
      .rejects.toMatchObject({ code: 'conflict', details: { rule: 'changed_meanwhile' } });
    expect(tries).toBe(MAX_UPDATE_ATTEMPTS);
  });

  it('does not redo an attempt that failed for another reason', async () => {
    let tries = 0;
    await expect(updateInTurn('d', async () => { tries += 1; throw new CrmError('conflict', 'unique', { field: 'email' }); })).rejects.toThrow('unique');
    expect(tries).toBe(1);
  });
});
