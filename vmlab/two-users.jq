# Rules for two users (two application classes) from one user's compiled
# rules: user 2 gets tags $off + every tag of user 1, on every switch the
# same classify and rewrite rules with its tags, and its priorities from
# $prio (user 1's priority as a string -> user 2's): with priority reuse
# {"1": 2, "2": 1} (the draft's 7.4: user 2 takes 2 for shortest paths and
# 1 for bounces); without it {"1": 3, "2": 4} (four priorities). The
# hosts of $users2 (an array) send user 2's initial tag.
def t2: . + $off;
def p2: $prio[tostring];
. as $r |
.tags += [$r.tags[] | {tag: (.tag | t2), priority: (.priority | p2)}] |
.classes = [.classes[0]] |
.hosts |= with_entries(if (.key | IN($users2[])) then
	.value = {tag: (.value.tag | t2), classes: [.value.tag | t2]} else . end) |
.switches |= map_values(
	.classify += [.classify[] | .tag |= t2 | .priority |= p2] |
	.rewrite += [.rewrite[] | .tag |= t2 | .new_tag |= t2])
