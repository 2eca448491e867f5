# SPDX-License-Identifier: GPL-2.0-only
# scikit-learn (Debian's python3-sklearn) training a neural network, its
# MLPClassifier (numpy: float64 weights, Adam's two moment buffers per
# weight), on handwritten digits (the UCI digits it ships: 1,797 8x8
# images) grown with shifted, noisy copies as data augmentation does and
# kept in memory: mini-batches drawn from the whole set, the weights
# copied after every epoch as checkpoints, then predictions over all of
# it. PyTorch's CPU loop was the first choice: Debian's python3-torch
# takes minutes under TCG (torch-train.py).
import copy
import sys

import numpy as np
from sklearn.datasets import load_digits
from sklearn.neural_network import MLPClassifier

copies = int(sys.argv[1]) if len(sys.argv) > 1 else 10
epochs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
steps = int(sys.argv[3]) if len(sys.argv) > 3 else 40
rng = np.random.default_rng(45)
dig = load_digits()
x0 = np.pad(dig.images / 16.0, ((0, 0), (4, 4), (4, 4)))
xs, ys = [], []
for c in range(copies):
    dy, dx = rng.integers(-3, 4, 2)
    x = np.roll(x0, (dy, dx), axis=(1, 2)) + rng.normal(0, 0.05, x0.shape)
    xs.append(x.reshape(len(x), -1))
    ys.append(dig.target)
x, y = np.concatenate(xs), np.concatenate(ys)
del xs, ys
net = MLPClassifier(hidden_layer_sizes=(64, 32), batch_size=128, random_state=45)
ckpt = []
for ep in range(epochs):
    for b in rng.integers(0, len(x), (steps, 128)):
        net.partial_fit(x[b], y[b], classes=np.arange(10))
    ckpt.append(copy.deepcopy((net.coefs_, net.intercepts_)))
acc = float(np.mean([np.mean(net.predict(x[i:i + 4096]) == y[i:i + 4096])
                     for i in range(0, len(x), 4096)]))
print("sklearn-train: %d images, %d epochs of %d batches, loss %.4f, accuracy %.4f,"
      " %d checkpoints" % (len(x), epochs, steps, net.loss_, acc, len(ckpt)))
