"""The order of a ``java.util.HashMap`` bucket that has become a tree bin.

``HashMap`` turns a bucket into a red-black tree when a put makes its list longer than eight
entries in a table of 64 buckets or more. The tree's nodes stay on the bucket's ``next`` list,
which iteration follows, but tree operations reorder that list:

- making the tree (``treeify``) inserts the nodes in list order, then moves the tree's root to
  the head of the list;
- a later put links the new node right after the node it becomes a child of, rebalances the
  tree (the usual red-black insertion), then moves the root to the head;
- a resize splits the list into the entries that stay and those that move up, each side in list
  order: a side of six entries or fewer becomes a plain list again; a longer one is made a tree
  afresh from its list, unless the other side is empty, when it keeps the old tree.

The tree orders keys by their spread hash, a signed int, then, for equal hashes, by the keys'
``compareTo`` when both have the same ``Comparable`` class, else by their class names. A tie
left after that (same class, ``compareTo`` 0) goes by ``System.identityHashCode``, which no
one can predict: :class:`UnorderedMap` is raised then.

Each entry is a (spread hash, item) pair, as :mod:`._java_hash` keeps them; an order key, a
value Python's ``<`` orders as the tree orders keys of one hash, comes from the map's function
of the item (see :mod:`._java_hash`).
"""

_UNTREEIFY_THRESHOLD = 6


class UnorderedMap(Exception):
    """A map whose HashMap order cannot be reproduced (a tie broken by identity hash codes)."""


class _Node:
    __slots__ = ("entry", "rank", "left", "right", "parent", "red", "next", "prev")

    def __init__(self, entry, order_key):
        spread = entry[0]
        # The tree compares the spread hashes as signed ints.
        signed = spread - (1 << 32) if spread & 0x80000000 else spread
        self.entry = entry
        self.rank = (signed, order_key)
        self.left = self.right = self.parent = self.next = self.prev = None
        self.red = False


def _goes_left(node, other):
    """Whether the tree puts ``node`` on the left of ``other`` (to its right otherwise)."""
    if node.rank == other.rank:
        raise UnorderedMap(
            "a map with two keys of one class that compare equal in a HashMap tree bin"
        )
    return node.rank < other.rank


def _rotate_left(root, node):
    pivot = node.right
    node.right = pivot.left
    if pivot.left is not None:
        pivot.left.parent = node
    above = node.parent
    pivot.parent = above
    if above is None:
        root = pivot
        pivot.red = False
    elif above.left is node:
        above.left = pivot
    else:
        above.right = pivot
    pivot.left = node
    node.parent = pivot
    return root


def _rotate_right(root, node):
    pivot = node.left
    node.left = pivot.right
    if pivot.right is not None:
        pivot.right.parent = node
    above = node.parent
    pivot.parent = above
    if above is None:
        root = pivot
        pivot.red = False
    elif above.right is node:
        above.right = pivot
    else:
        above.left = pivot
    pivot.right = node
    node.parent = pivot
    return root


def _balanced(root, node):
    """The root after the red-black fix-up of ``node``, just linked as a leaf."""
    node.red = True
    while True:
        parent = node.parent
        if parent is None:
            node.red = False
            return node
        if not parent.red:
            return root
        grand = parent.parent  # a red node is never the root
        if parent is grand.left:
            uncle = grand.right
            if uncle is not None and uncle.red:
                uncle.red = parent.red = False
                grand.red = True
                node = grand
                continue
            if node is parent.right:
                root = _rotate_left(root, parent)
                parent = node
            parent.red = False
            grand.red = True
            return _rotate_right(root, grand)
        uncle = grand.left
        if uncle is not None and uncle.red:
            uncle.red = parent.red = False
            grand.red = True
            node = grand
            continue
        if node is parent.left:
            root = _rotate_right(root, parent)
            parent = node
        parent.red = False
        grand.red = True
        return _rotate_left(root, grand)


def _attach(root, node):
    """Links ``node`` as the leaf the tree's order leads it to; returns its parent."""
    parent = root
    while True:
        if _goes_left(node, parent):
            if parent.left is None:
                parent.left = node
                break
            parent = parent.left
        else:
            if parent.right is None:
                parent.right = node
                break
            parent = parent.right
    node.parent = parent
    return parent


class TreeBin:
    """A tree bin: its entries in ``next`` order (iterating it gives them) and its tree.

    ``append`` puts a new key's entry, as a put into the bin does. The head of the list is
    always the tree's root, as every operation ends by moving the root to the front.
    """

    __slots__ = ("_root", "_size", "_order_key")

    def __init__(self, entries, order_key):
        """Makes the tree of a bucket whose list holds ``entries``, in that order;
        ``order_key(item)`` is the order key of the key an entry's item stands for."""
        self._order_key = order_key
        self._treeify([_Node(entry, order_key(entry[1])) for entry in entries])

    def __len__(self):
        return self._size

    def __iter__(self):
        node = self._root
        while node is not None:
            yield node.entry
            node = node.next

    def append(self, entry):
        """Puts a new key: linked after its tree parent in the list, then the tree rebalanced."""
        node = _Node(entry, self._order_key(entry[1]))
        parent = _attach(self._root, node)
        following = parent.next
        node.prev = parent
        node.next = following
        parent.next = node
        if following is not None:
            following.prev = node
        self._size += 1
        self._to_front(_balanced(self._root, node))

    def split(self, bit):
        """The (low, high) buckets this bin becomes when a resize doubles a table of ``bit``
        buckets: the entries whose spread hash has ``bit`` clear stay, the others move up.
        Each is a list of entries or a :class:`TreeBin` (this one, if all go one way)."""
        low, high = [], []
        node = self._root
        while node is not None:
            (high if node.entry[0] & bit else low).append(node)
            node = node.next
        return self._side(low, high), self._side(high, low)

    def _side(self, nodes, others):
        if len(nodes) <= _UNTREEIFY_THRESHOLD:
            return [node.entry for node in nodes]
        if not others:
            return self  # the same nodes in the same list order: the tree stays as it is
        tree = TreeBin.__new__(TreeBin)
        tree._order_key = self._order_key
        tree._treeify(nodes)
        return tree

    def _treeify(self, nodes):
        """Links ``nodes`` in this order and inserts them into a new tree in this order."""
        previous = None
        for node in nodes:
            node.prev = previous
            node.next = None
            if previous is not None:
                previous.next = node
            previous = node
        self._size = len(nodes)
        self._root = nodes[0]
        root = None
        for node in nodes:
            node.left = node.right = None
            if root is None:
                node.parent = None
                node.red = False
                root = node
            else:
                _attach(root, node)
                root = _balanced(root, node)
        self._to_front(root)

    def _to_front(self, root):
        """Makes ``root`` the tree's root and the list's head (unlinked from where it was)."""
        head = self._root
        if root is not head:
            before, after = root.prev, root.next
            before.next = after  # root is not the head: it has a node before it
            if after is not None:
                after.prev = before
            root.prev = None
            root.next = head
            head.prev = root
        self._root = root
