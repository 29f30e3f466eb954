import json
def load(p, mode):
    return {x['index']: x for x in (json.loads(l) for l in open(p)) if x['mode'] == mode}
single = load('timed-n1/records.jsonl', 'single')
n1 = load('timed-n1/records.jsonl', 'crew')
n4 = load('timed-n4/records.jsonl', 'crew')
idx = sorted(n4)
s = sum(single[i]['seconds'] for i in idx); a = sum(n1[i]['seconds'] for i in idx); b = sum(n4[i]['seconds'] for i in idx)
print(f"problems {len(idx)} (0-{idx[-1]}): single {sum(single[i]['passed'] for i in idx)} in {s:.0f} s; "
      f"N=1 {sum(n1[i]['passed'] for i in idx)} in {a:.0f} s ({a/s:.2f}x single); N=4 {sum(n4[i]['passed'] for i in idx)} in {b:.0f} s ({b/s:.2f}x single, {b/a:.2f}x N=1)")
print('won', [i for i in idx if n4[i]['passed'] and not n1[i]['passed']], 'lost', [i for i in idx if n1[i]['passed'] and not n4[i]['passed']])
print('tokens', sum(n1[i]['tokens'] for i in idx), sum(n4[i]['tokens'] for i in idx), 'rounds', sum(n1[i]['rounds'] for i in idx), sum(n4[i]['rounds'] for i in idx))
