# SPDX-License-Identifier: GPL-2.0-only
# PyTorch (Debian's python3-torch, CPU) training a small network (a
# multi-layer perceptron) on handwritten digits (the UCI digits
# scikit-learn ships: 1,797 8x8 images), the training set grown with
# shifted, noisy copies as data augmentation does and kept in memory as
# float32 tensors; Adam (two moment buffers per weight), mini-batches, a
# checkpoint of the weights kept per epoch, then an evaluation pass over
# all of it. Not in realprog.sh's list: under TCG, importing Debian's
# torch alone takes about a minute, and the run (10% of the set, one
# epoch) took 158 s without a memory limit; ZBW_PROGS=torch-train runs it.

import sys

import numpy as np
import torch
from sklearn.datasets import load_digits

copies = int(sys.argv[1]) if len(sys.argv) > 1 else 20
epochs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
torch.manual_seed(45)
rng = np.random.default_rng(45)
dig = load_digits()
x0 = np.pad(dig.images.astype(np.float32) / 16.0, ((0, 0), (4, 4), (4, 4)))
xs, ys = [], []
for c in range(copies):
    dy, dx = rng.integers(-3, 4, 2)
    x = np.roll(x0, (dy, dx), axis=(1, 2)) + rng.normal(0, 0.05, x0.shape).astype(np.float32)
    xs.append(torch.from_numpy(x).unsqueeze(1))
    ys.append(torch.from_numpy(dig.target))
x, y = torch.cat(xs), torch.cat(ys)
del xs, ys
model = torch.nn.Sequential(
    torch.nn.Flatten(), torch.nn.Linear(16 * 16, 256), torch.nn.ReLU(),
    torch.nn.Linear(256, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
ckpt = []
for ep in range(epochs):
    perm = torch.randperm(len(x))
    for i in range(0, len(x), 128):
        b = perm[i:i + 128]
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x[b]), y[b])
        loss.backward()
        opt.step()
    ckpt.append({k: v.clone() for k, v in model.state_dict().items()})
with torch.no_grad():
    acc = sum(int((model(x[i:i + 512]).argmax(1) == y[i:i + 512]).sum())
              for i in range(0, len(x), 512)) / len(x)
print("torch-train: %d images, %d epochs, loss %.4f, accuracy %.4f, %d checkpoints"
      % (len(x), epochs, float(loss), acc, len(ckpt)))
